package io.gamefleet.local.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.Compute;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.StandbyState.Evaluation;
import io.gamefleet.domain.UtilizationStatus;
import io.gamefleet.local.LocalProfile;
import io.gamefleet.local.agents.InstanceAgents;
import io.gamefleet.local.process.ChildProcess;
import io.gamefleet.local.process.Emulators;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A burst of sessions against a standby buffer, with real agents and real processes: the local
 * profile with the balancer every {@code balancer s} and instances InService 2 s after launch
 * ({@code -Dbench.launchSeconds=N}), the agents on every instance of one group, each running
 * {@code servers per instance} of the agent's scripted GSDK game server, the group given a standby
 * buffer of {@code buffer} servers (PutStandbyPolicy through the edge). Once the buffer is full,
 * CreateSession requests through the edge (signed with SigV4) at 5 times the buffer a minute for
 * {@code minutes}, on a schedule, one at a time; their matches last the run. It prints:
 *
 * <ul>
 * <li>the StandingBy servers (AVAILABLE, unclaimed, on an ACTIVE instance: the benchmark's own
 *     listing of the group every 500 ms, which sees a refill as it happens) below the buffer: per
 *     minute, how often, how long and how low, and after the burst how long until they were back
 *     at the buffer; every balancer evaluation (DescribeStandbyPolicy's LastEvaluation) as it
 *     comes, beside the listing's count, with the instances in service;</li>
 * <li>the share of session requests answered 409 OutOfCapacityException;</li>
 * <li>the DynamoDB calls at the endpoint ({@link CountingProxy}, each named by {@link CallerLabels}):
 *     per session request, CreateSession's own (answered and refused apart, by operation), then every
 *     caller's during the burst per session request (the balancer's, the agents' functions'); and,
 *     after the refill, ClaimGameServer's per claim through the edge at the same pace on the same
 *     group;</li>
 * <li>session request to GSDK Active (the scripted server's console line {@code ACTIVE cookie=<the
 *     session's cookie>}, that is ReadyForPlayers returning) and the CreateSession call, p50 and p99.</li>
 * </ul>
 *
 * Run from the repository's top folder: {@code SessionBurstBenchmark [buffer, default 10] [servers
 * per instance, 4] [minutes, 3] [beats: cpp or java, cpp] [balancer s, 10]}; {@code
 * -Dbench.dynamic=X:Y} gives the buffer a dynamic tier (below X% of it, multiplied by Y).
 */
public final class SessionBurstBenchmark {
    private static final String GROUP = "burst";
    private static final long POLL_MS = 500;
    private static final long ACTIVE_TIMEOUT_NANOS = 120_000_000_000L;
    /** CreateSession's own calls: its function's, and its claim's reads of the claim index's shards. */
    private static final String CLAIM_INDEX_FAN_OUT = CallerLabels.FAN_OUT + " Query:" + Tables.CLAIMABLE_INDEX;
    private static final Predicate<String> SESSION_CALLS = label -> label.startsWith("CreateSessionHandler ")
            || label.equals(CLAIM_INDEX_FAN_OUT);
    private static final Predicate<String> CLAIM_CALLS = label -> label.startsWith("ClaimGameServerHandler ")
            || label.equals(CLAIM_INDEX_FAN_OUT);

    private SessionBurstBenchmark() {}

    /** The benchmark's listing at one moment. */
    private record Sample(long nanos, int standingBy, int servers, int instances) {}

    /** A session request: when it was sent and answered, its status, the calls it made at the endpoint. */
    private record Request(long sentNanos, long answeredNanos, int status, Map<String, Long> calls) {}

    /**
     * When the listing first saw an instance in the Auto Scaling group (launched), in service,
     * recorded in the group (DescribeGameServerInstances), with its first server and with all its
     * servers registered; -1 until then.
     */
    private static final class InstanceTimes {
        final long launched;
        volatile long inService = -1;
        volatile long recorded = -1;
        volatile long firstServer = -1;
        volatile long allServers = -1;

        InstanceTimes(long launched) {
            this.launched = launched;
        }
    }

    /** An answered session whose process has not been seen Active yet. */
    private record Pending(String cookie, String gameServerId, Path console, long sentNanos) {}

    public static void main(String[] args) throws Exception {
        int buffer = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int perInstance = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int minutes = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        String beats = args.length > 3 ? args[3] : "cpp";
        int balancerSeconds = args.length > 4 ? Integer.parseInt(args[4]) : 10;
        int launchSeconds = Integer.getInteger("bench.launchSeconds", 2);
        int sessions = 5 * buffer * minutes;
        long intervalNanos = 60_000_000_000L / (5L * buffer);
        int maxSize = (sessions + buffer + perInstance - 1) / perInstance + 2;
        Path matches = AgentBenchmark.matchesFolder();
        var servers = AgentBenchmark.scriptedServers(matches, beats, perInstance);
        CallerLabels.as("benchmark");
        Path logs = TemporaryFolders.make("gamefleet-bench-");
        try (ChildProcess dynamo = Emulators.dynamoDb(Emulators.home(), Optional.empty(), logs.toFile());
                CountingProxy endpoint = new CountingProxy(dynamo.endpoint());
                LocalProfile profile = Benchmarks.start(List.of(new CallerLabels()), Optional.of(endpoint.endpoint()),
                        Duration.ofSeconds(balancerSeconds), Duration.ofSeconds(launchSeconds))) {
            System.out.printf("session burst: buffer %d, %d servers per instance, %d sessions a minute for %d min"
                    + " (one every %.2f s), balancer every %d s, instances InService %d s after launch, heartbeats"
                    + " timed as the %s GSDK times them, group MaxSize %d%s%n", buffer, perInstance, 5 * buffer, minutes,
                    intervalNanos / 1e9, balancerSeconds, launchSeconds, beats.equals("cpp") ? "C++" : "Java", maxSize,
                    dynamicTier().isEmpty() ? "" : ", dynamic tier " + System.getProperty("bench.dynamic"));
            Benchmarks.createActive(profile, GROUP, 1, maxSize, List.of("c5.large", "m5.large"));
            AtomicInteger exits137 = new AtomicInteger();
            List<String> crashLines = new CopyOnWriteArrayList<>();
            Queue<String> agentLines = new ConcurrentLinkedQueue<>();
            InstanceAgents agents = profile.runAgents(servers, line -> {
                agentLines.add(line);
                if (line.contains("exited 137")) {
                    exits137.incrementAndGet();
                }
                if (line.contains("crash loop") && crashLines.size() < 5) {
                    crashLines.add(line);
                }
            });
            EdgeRequests edge = new EdgeRequests(profile.endpoint());
            EdgeRequests.Answer put = edge.send("PUT", "/game-server-groups/" + GROUP + "/standby",
                    "{\"StandingBy\":" + buffer + dynamicTier() + "}");
            if (put.status() != 200) {
                throw new IllegalStateException("PutStandbyPolicy answered " + put.status() + " " + put.body());
            }
            long origin = System.nanoTime();
            Observer observer = new Observer(profile, buffer, perInstance, origin);
            observer.start();
            long full = observer.awaitAtLeast(buffer, origin + 600_000_000_000L);
            System.out.printf("buffer full (%d StandingBy) %.1f s after PutStandbyPolicy%n", buffer, (full - origin) / 1e9);

            ActiveWatcher watcher = new ActiveWatcher(agentLines);
            watcher.start();
            Map<String, Long> before = endpoint.requestsByCaller();
            long burstStart = System.nanoTime();
            observer.mark(burstStart, "burst starts");
            List<Request> requests = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                sleepUntil(burstStart + i * intervalNanos);
                String cookie = "burst-" + i;
                Map<String, Long> callsBefore = endpoint.requestsByCaller();
                long sent = System.nanoTime();
                EdgeRequests.Answer answer = edge.send("POST", "/game-server-groups/" + GROUP + "/sessions",
                        "{\"SessionId\":\"" + UUID.randomUUID() + "\",\"SessionCookie\":\"" + cookie + "\"}");
                long answered = System.nanoTime();
                requests.add(new Request(sent, answered, answer.status(),
                        difference(callsBefore, endpoint.requestsByCaller(), SESSION_CALLS)));
                if (answer.status() == 200) {
                    JsonNode server = answer.body().path("Session");
                    String id = server.path("GameServerId").asText();
                    watcher.pending.add(new Pending(cookie, id, AgentBenchmark.consoleLog(agents,
                            server.path("InstanceId").asText(), id), sent));
                } else if (answer.status() != 409 || !answer.body().path("__type").asText().contains("OutOfCapacity")) {
                    throw new IllegalStateException("CreateSession answered " + answer.status() + " " + answer.body());
                }
            }
            long burstEnd = requests.get(requests.size() - 1).answeredNanos();
            observer.mark(burstEnd, "burst ends");
            Map<String, Long> duringBurst = difference(before, endpoint.requestsByCaller(), label -> true);
            int evaluationsInBurst = observer.evaluationsBetween(burstStart, burstEnd);
            long refilled = observer.awaitAtLeast(buffer, burstEnd + (3L * balancerSeconds + 120) * 1_000_000_000L);
            observer.mark(refilled, refilled < 0 ? "not refilled" : "refilled");

            List<Request> claims = new ArrayList<>();
            if (refilled > 0) {
                EdgeClaim claim = new EdgeClaim(profile.endpoint(), GROUP);
                long claimsStart = System.nanoTime();
                for (int i = 0; i < Math.max(1, buffer / 2); i++) {
                    sleepUntil(claimsStart + i * intervalNanos);
                    Map<String, Long> callsBefore = endpoint.requestsByCaller();
                    long sent = System.nanoTime();
                    boolean claimed = claim.claim().isPresent();
                    claims.add(new Request(sent, System.nanoTime(), claimed ? 200 : 409,
                            difference(callsBefore, endpoint.requestsByCaller(), CLAIM_CALLS)));
                }
            }
            watcher.awaitDone();
            observer.stop();

            printStandingBy(observer, requests, buffer, burstStart, burstEnd, refilled);
            printInstances(observer, burstStart);
            printCalls(requests, claims, duringBurst, evaluationsInBurst);
            System.out.printf("%nsession request to GSDK Active (%s), and the CreateSession call:%n",
                    "the scripted server's console line ACTIVE cookie=<the session's cookie>");
            System.out.printf("%-36s %6s %8s %8s %8s%n", "", "count", "p50 ms", "p99 ms", "max ms");
            Benchmarks.Latencies call = new Benchmarks.Latencies();
            requests.stream().filter(r -> r.status() == 200).forEach(r -> call.add(r.answeredNanos() - r.sentNanos()));
            row("CreateSession call (answered)", call);
            row("session request to GSDK Active", watcher.toActive);
            row("  Active without its session (catch-up)", watcher.toActiveWithoutSession);
            System.out.printf("not Active within %d s: %d; agent lines 'exited 137': %d%n",
                    ACTIVE_TIMEOUT_NANOS / 1_000_000_000L, watcher.missed.get(), exits137.get());
            crashLines.forEach(l -> System.out.println("  " + l));
        }
    }

    private static void printStandingBy(Observer observer, List<Request> requests, int buffer, long burstStart,
            long burstEnd, long refilled) {
        System.out.printf("%nStandingBy below the buffer of %d during the burst (the benchmark's listing every %d ms),"
                + " by minute:%n", buffer, POLL_MS);
        System.out.printf("%-7s %9s %6s %8s %9s %13s %13s %7s%n", "minute", "sessions", "409s", "409 %", "dips",
                "below, s", "longest, s", "lowest");
        List<Sample> samples = observer.samples;
        for (long m = 0; burstStart + m * 60_000_000_000L < burstEnd; m++) {
            long from = burstStart + m * 60_000_000_000L;
            long to = Math.min(burstEnd, from + 60_000_000_000L);
            List<Request> inMinute = requests.stream().filter(r -> r.sentNanos() >= from && r.sentNanos() < to).toList();
            long refused = inMinute.stream().filter(r -> r.status() == 409).count();
            int dips = 0;
            long below = 0;
            long longest = 0;
            long dipStart = -1;
            int lowest = Integer.MAX_VALUE;
            for (int i = 0; i < samples.size(); i++) {
                Sample s = samples.get(i);
                if (s.nanos() < from || s.nanos() >= to) {
                    continue;
                }
                lowest = Math.min(lowest, s.standingBy());
                long next = i + 1 < samples.size() ? Math.min(to, samples.get(i + 1).nanos()) : to;
                if (s.standingBy() < buffer) {
                    below += next - s.nanos();
                    if (dipStart < 0) {
                        dipStart = s.nanos();
                        dips++;
                    }
                } else if (dipStart >= 0) {
                    longest = Math.max(longest, s.nanos() - dipStart);
                    dipStart = -1;
                }
            }
            if (dipStart >= 0) {
                longest = Math.max(longest, to - dipStart);
            }
            System.out.printf("%-7d %9d %6d %7.1f%% %9d %13.1f %13.1f %7s%n", m + 1, inMinute.size(), refused,
                    100.0 * refused / Math.max(1, inMinute.size()), dips, below / 1e9, longest / 1e9,
                    lowest == Integer.MAX_VALUE ? "-" : Integer.toString(lowest));
        }
        long refused = requests.stream().filter(r -> r.status() == 409).count();
        System.out.printf("session requests answered 409 OutOfCapacityException: %d of %d (%.1f%%)%n", refused,
                requests.size(), 100.0 * refused / requests.size());
        Sample last = observer.latestAtOrBefore(burstEnd);
        System.out.printf("after the burst: %d StandingBy at the last request's answer; back at %d %s%n",
                last == null ? -1 : last.standingBy(), buffer, refilled < 0 ? "NOT within the wait"
                        : String.format("%.1f s after it", Math.max(0, refilled - burstEnd) / 1e9));
    }

    /** How long the instances launched from the burst's start on took to each step, as the listing saw them. */
    private static void printInstances(Observer observer, long burstStart) {
        List<InstanceTimes> launched = observer.instanceTimes.values().stream().filter(t -> t.launched >= burstStart)
                .toList();
        System.out.printf("%ninstances launched from the burst's start: %d (seen by the listing every %d ms)%n",
                launched.size(), POLL_MS);
        System.out.printf("%-44s %8s %8s%n", "", "p50 s", "max s");
        step("launched to InService", launched, t -> t.launched, t -> t.inService);
        step("InService to recorded in the group", launched, t -> t.inService, t -> t.recorded);
        step("InService to its first server registered", launched, t -> t.inService, t -> t.firstServer);
        step("InService to all its servers registered", launched, t -> t.inService, t -> t.allServers);
    }

    private static void step(String what, List<InstanceTimes> instances, java.util.function.ToLongFunction<InstanceTimes> from,
            java.util.function.ToLongFunction<InstanceTimes> to) {
        Benchmarks.Latencies l = new Benchmarks.Latencies();
        instances.stream().filter(t -> from.applyAsLong(t) >= 0 && to.applyAsLong(t) >= 0)
                .forEach(t -> l.add(Math.max(0, to.applyAsLong(t) - from.applyAsLong(t))));
        System.out.printf("%-44s %8.1f %8.1f%n", what, l.percentile(0.5) / 1000, l.percentile(1) / 1000);
    }

    private static void printCalls(List<Request> requests, List<Request> claims, Map<String, Long> duringBurst,
            int evaluations) {
        System.out.printf("%nDynamoDB calls at the endpoint, per request:%n");
        System.out.printf("%-44s %6s %10s %12s %8s   %s%n", "", "count", "calls/req", "claim index", "others",
                "by operation (per request)");
        callsRow("CreateSession, answered", requests.stream().filter(r -> r.status() == 200).toList());
        callsRow("CreateSession, refused (409)", requests.stream().filter(r -> r.status() == 409).toList());
        callsRow("CreateSession, all", requests);
        callsRow("ClaimGameServer (after the refill, same pace)", claims);
        System.out.printf("%nevery caller's DynamoDB calls at the endpoint during the burst (%d session requests, %d"
                + " balancer evaluations seen):%n", requests.size(), evaluations);
        System.out.printf("%-44s %8s %12s%n", "caller", "calls", "per session");
        Map<String, Long> byCaller = new TreeMap<>();
        duringBurst.forEach((label, n) -> byCaller.merge(CallerLabels.callerOf(label), n, Long::sum));
        byCaller.forEach((caller, n) -> System.out.printf("%-44s %8d %12.2f%n", caller, n, (double) n / requests.size()));
        long balancer = byCaller.getOrDefault("BalancerHandler", 0L)
                + byCaller.getOrDefault(CallerLabels.FAN_OUT + " Query:" + Tables.SERVERS_BY_GROUP_INDEX, 0L);
        System.out.printf("the balancer's (BalancerHandler and its listing's fan-out): %.1f a run%n",
                (double) balancer / Math.max(1, evaluations));
    }

    private static void callsRow(String what, List<Request> rs) {
        Map<String, Long> total = new TreeMap<>();
        rs.forEach(r -> r.calls().forEach((label, n) -> total.merge(label, n, Long::sum)));
        long all = total.values().stream().mapToLong(Long::longValue).sum();
        long claimIndex = total.entrySet().stream().filter(e -> e.getKey().endsWith(":" + Tables.CLAIMABLE_INDEX))
                .mapToLong(Map.Entry::getValue).sum();
        StringBuilder ops = new StringBuilder();
        total.forEach((label, n) -> ops.append(String.format("%s %.2f; ", label, (double) n / rs.size())));
        System.out.printf("%-44s %6d %10s %12s %8s   %s%n", what, rs.size(), perRequest(all, rs),
                perRequest(claimIndex, rs), perRequest(all - claimIndex, rs), ops);
    }

    private static String perRequest(long calls, List<Request> rs) {
        return rs.isEmpty() ? "-" : String.format("%.2f", (double) calls / rs.size());
    }

    private static void row(String what, Benchmarks.Latencies l) {
        System.out.printf("%-36s %6d %8.1f %8.1f %8.1f%n", what, l.count(), l.percentile(0.5), l.percentile(0.99),
                l.percentile(1));
    }

    /** The labels' counts of {@code after} less {@code before}, those {@code which} takes, without zeros. */
    private static Map<String, Long> difference(Map<String, Long> before, Map<String, Long> after,
            Predicate<String> which) {
        Map<String, Long> d = new TreeMap<>();
        after.forEach((label, n) -> {
            long delta = n - before.getOrDefault(label, 0L);
            if (delta > 0 && which.test(label)) {
                d.put(label, delta);
            }
        });
        return d;
    }

    private static void sleepUntil(long nanos) throws InterruptedException {
        long wait = nanos - System.nanoTime();
        if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
    }

    /**
     * Lists the group every {@link #POLL_MS} (in-process, its DynamoDB calls named {@code benchmark}):
     * the StandingBy servers, all servers and the instances in service; prints each new balancer
     * evaluation as it is seen, beside the listing's count.
     */
    private static final class Observer {
        private final LocalProfile profile;
        private final int buffer;
        private final long origin;
        final List<Sample> samples = new CopyOnWriteArrayList<>();
        /** Each instance of the group's Auto Scaling group, from when the listing first saw it. */
        final Map<String, InstanceTimes> instanceTimes = new ConcurrentHashMap<>();
        private final int perInstance;
        private final List<Long> evaluationsSeen = new CopyOnWriteArrayList<>();
        private final Thread thread;
        private volatile boolean stopped;

        Observer(LocalProfile profile, int buffer, int perInstance, long origin) {
            this.profile = profile;
            this.perInstance = perInstance;
            this.buffer = buffer;
            this.origin = origin;
            this.thread = new Thread(this::run, "bench-observer");
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        void stop() throws InterruptedException {
            stopped = true;
            thread.join();
        }

        private void run() {
            CallerLabels.as("benchmark");
            Optional<Instant> lastEvaluation = Optional.empty();
            while (!stopped) {
                long t = System.nanoTime();
                Instant now = Instant.now();
                List<GameServer> all = profile.services().gameServers().list(GROUP, Optional.empty(), 1000,
                        Optional.empty()).items();
                int standingBy = (int) all.stream().filter(s -> s.utilizationStatus() == UtilizationStatus.AVAILABLE
                        && !s.isClaimedAt(now) && s.instanceStatus() == InstanceStatus.ACTIVE).count();
                List<GameServerInstance> recorded = profile.services().groups().describeInstances(GROUP,
                        Optional.empty(), 1000, Optional.empty()).items();
                int instances = recorded.size();
                Sample sample = new Sample(t, standingBy, all.size(), instances);
                for (Compute.ComputeInstance i : profile.fleet().instancesOf(GROUP)) {
                    InstanceTimes times = instanceTimes.computeIfAbsent(i.instanceId(), id -> new InstanceTimes(t));
                    if (i.inService() && times.inService < 0) {
                        times.inService = t;
                    }
                }
                recorded.forEach(i -> {
                    InstanceTimes times = instanceTimes.get(i.instanceId());
                    if (times != null && times.recorded < 0) {
                        times.recorded = t;
                    }
                });
                Map<String, Long> serversOn = all.stream().collect(Collectors.groupingBy(GameServer::instanceId,
                        Collectors.counting()));
                serversOn.forEach((id, n) -> {
                    InstanceTimes times = instanceTimes.get(id);
                    if (times != null) {
                        if (times.firstServer < 0) {
                            times.firstServer = t;
                        }
                        if (n >= perInstance && times.allServers < 0) {
                            times.allServers = t;
                        }
                    }
                });
                samples.add(sample);
                Optional<Evaluation> e = profile.services().standby().describe(GROUP).lastEvaluation();
                if (e.isPresent() && !e.get().at().equals(lastEvaluation.orElse(null))) {
                    lastEvaluation = Optional.of(e.get().at());
                    evaluationsSeen.add(t);
                    Evaluation v = e.get();
                    System.out.printf("  %7.1f s  balancer: StandingBy %d of %d, in use %d, %d per instance, desired %d"
                            + " | listing: StandingBy %d, servers %d, instances %d%n", (t - origin) / 1e9, v.standingBy(),
                            v.target(), v.inUse(), v.serversPerInstance(), v.desiredCapacity(), standingBy, all.size(),
                            instances);
                }
                try {
                    Thread.sleep(Math.max(0, POLL_MS - (System.nanoTime() - t) / 1_000_000));
                } catch (InterruptedException ex) {
                    return;
                }
            }
        }

        void mark(long nanos, String what) {
            System.out.printf("  %7.1f s  %s%n", (nanos - origin) / 1e9, what);
        }

        /** The time of the first sample at or after now with at least {@code count} StandingBy; -1 past the deadline. */
        long awaitAtLeast(int count, long deadline) throws InterruptedException {
            int from = samples.size();
            while (System.nanoTime() < deadline) {
                for (int i = from; i < samples.size(); i++) {
                    if (samples.get(i).standingBy() >= count) {
                        return samples.get(i).nanos();
                    }
                }
                Thread.sleep(50);
            }
            return -1;
        }

        int evaluationsBetween(long from, long to) {
            return (int) evaluationsSeen.stream().filter(t -> t >= from && t <= to).count();
        }

        Sample latestAtOrBefore(long nanos) {
            Sample latest = null;
            for (Sample s : samples) {
                if (s.nanos() <= nanos) {
                    latest = s;
                }
            }
            return latest;
        }
    }

    /** Times each answered session to its process's console line that it was told Active (polled every 5 ms). */
    private static final class ActiveWatcher {
        final Queue<Pending> pending = new ConcurrentLinkedQueue<>();
        final Benchmarks.Latencies toActive = new Benchmarks.Latencies();
        final Benchmarks.Latencies toActiveWithoutSession = new Benchmarks.Latencies();
        final AtomicInteger missed = new AtomicInteger();
        private final Thread thread = new Thread(this::run, "bench-active-watcher");
        private volatile boolean draining;
        /** The agents' log lines: those of a server not seen Active are printed. */
        private final Queue<String> agentLines;

        ActiveWatcher(Queue<String> agentLines) {
            this.agentLines = agentLines;
        }

        void start() {
            thread.setDaemon(true);
            thread.start();
        }

        /** Waits until every answered session was seen Active or timed out. */
        void awaitDone() throws InterruptedException {
            draining = true;
            thread.join();
        }

        private void run() {
            Set<Pending> seen = new java.util.HashSet<>();
            while (!(draining && pending.isEmpty())) {
                long now = System.nanoTime();
                for (Pending p : pending) {
                    String console = console(p);
                    if (console.contains("ACTIVE cookie=" + p.cookie() + "\n")) {
                        toActive.add(System.nanoTime() - p.sentNanos());
                        seen.add(p);
                    } else if (console.contains("ACTIVE cookie=\n")) {
                        // Told Active by the agent's catch-up of a claim whose notice found no push connection:
                        // DescribeGameServer shows no session, so the game gets no cookie (docs/api.md, CreateSession).
                        toActiveWithoutSession.add(System.nanoTime() - p.sentNanos());
                        seen.add(p);
                    } else if (now - p.sentNanos() > ACTIVE_TIMEOUT_NANOS) {
                        missed.incrementAndGet();
                        System.out.printf("  not Active within %d s: session %s on %s%n",
                                ACTIVE_TIMEOUT_NANOS / 1_000_000_000L, p.cookie(), p.gameServerId());
                        agentLines.stream().filter(l -> l.contains(p.gameServerId()))
                                .forEach(l -> System.out.println("    " + l));
                        seen.add(p);
                    }
                }
                pending.removeAll(seen);
                seen.clear();
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private static String console(Pending p) {
            try {
                return Files.exists(p.console()) ? Files.readString(p.console()) : "";
            } catch (IOException e) {
                return "";
            }
        }
    }

    /** The policy's {@code Dynamic} member from {@code -Dbench.dynamic=X:Y}, or nothing. */
    private static String dynamicTier() {
        String tier = System.getProperty("bench.dynamic", "");
        if (tier.isBlank()) {
            return "";
        }
        String[] parts = tier.split(":", 2);
        return ",\"Dynamic\":[{\"BelowPercent\":" + Double.parseDouble(parts[0]) + ",\"Multiplier\":"
                + Double.parseDouble(parts[1]) + "}]";
    }
}
