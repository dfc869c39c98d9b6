package io.gamefleet.local.bench;

import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.GameServerService;
import io.gamefleet.domain.GameServerService.Claim;
import io.gamefleet.domain.GameServerService.Update;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.UtilizationStatus;
import io.gamefleet.local.LocalProfile;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * {@link ClaimBenchmark}'s steady pattern: claims arrive at a fixed rate (an open loop, on a
 * schedule) while every claimed server plays (UTILIZED), ends its game (deregisters) and comes
 * back as a new server (registers), and all servers heartbeat. Latency is from each claim's
 * scheduled arrival. The claims call the functions' service in this JVM, or with {@code
 * -Dbench.edge=true} go through the local edge server signed with SigV4 ({@link EdgeClaim}), as a
 * matchmaker's do; the heartbeats and games, the background load, stay in this JVM either way.
 */
final class SteadyClaims {
    /** The unprinted round's length ({@code -Dbench.warmUpSeconds}). */
    private static final int WARM_UP_SECONDS = Integer.getInteger("bench.warmUpSeconds", 60);

    private final LocalProfile profile;
    private final Benchmarks.DynamoDbCalls calls;
    /** Null when the functions reach the emulator directly. */
    private final CountingProxy endpoint;
    private final ProcessHandle emulator;
    private final boolean throughEdge = Boolean.getBoolean("bench.edge");

    SteadyClaims(LocalProfile profile, Benchmarks.DynamoDbCalls calls, CountingProxy endpoint, ProcessHandle emulator) {
        this.profile = profile;
        this.calls = calls;
        this.endpoint = endpoint;
        this.emulator = emulator;
    }

    /** {@code [claims/s] [seconds] [servers] [game ms] [heartbeat s]} (200, 20, 1000, 2000, 10). */
    void run(String[] args) throws Exception {
        int rate = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        int servers = args.length > 3 ? Integer.parseInt(args[3]) : 1000;
        long gameMillis = args.length > 4 ? Long.parseLong(args[4]) : 2000;
        int heartbeatSeconds = args.length > 5 ? Integer.parseInt(args[5]) : 10;
        // An unprinted round first, on a group of its own: the figures are a warm function's, as in the drain.
        // C2 compiled the claim and game paths' methods for the first minute at this load (about 0.3 to 0.6
        // of the two cores): 60 s (docs/capacity.md, "Through the edge, with SigV4").
        round("steady-warm-up", rate, WARM_UP_SECONDS, servers, gameMillis, heartbeatSeconds, false);
        round("steady", rate, seconds, servers, gameMillis, heartbeatSeconds, true);
    }

    /** One claim: the claimed server's id, or empty when the group is out of capacity. */
    private interface Claimer {
        Optional<String> claim() throws Exception;
    }

    private Claimer claimer(String group) throws Exception {
        if (throughEdge) {
            return new EdgeClaim(profile.endpoint(), group)::claim;
        }
        GameServerService service = profile.services().gameServers();
        Claim claim = new Claim(group, Optional.empty(), Optional.empty(), Optional.empty());
        return () -> {
            try {
                return Optional.of(service.claim(claim).gameServerId());
            } catch (GamefleetException e) {
                if (e.errorType().equals("OutOfCapacityException")) {
                    return Optional.empty();
                }
                throw e;
            }
        };
    }

    private void round(String group, int rate, int seconds, int servers, long gameMillis, int heartbeatSeconds,
            boolean print) throws Exception {
        GameServerInstance instance = ClaimBenchmark.prepare(profile, group, servers);
        GameServerService service = profile.services().gameServers();
        List<String> live = Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < servers; i++) {
            live.add(group + "-" + i);
        }
        AtomicLong nextId = new AtomicLong(servers);
        AtomicLong outOfCapacity = new AtomicLong();
        AtomicLong heartbeats = new AtomicLong();
        Breakdown measured = new Breakdown();
        Claimer claimer = claimer(group);
        // The claims' DynamoDB calls: through the edge they run on the edge's threads, which the
        // benchmark never names (their calls count as "other"; nothing else runs there meanwhile).
        String claimCalls = throughEdge ? "other" : "claim";
        EdgeTimes edgeTimes = throughEdge ? EdgeTimes.on(profile.edge().jetty()) : null;
        ExecutorService workers = Executors.newFixedThreadPool(64);
        // Each claim on a thread of its own, as each concurrent request has a Lambda container of its
        // own: a claim never queues behind the benchmark's heartbeats and games in the workers' pool,
        // and arrivals have a scheduler thread of their own, so the figures are the product's.
        ExecutorService claimers = Executors.newCachedThreadPool();
        ScheduledExecutorService arrivals = Executors.newSingleThreadScheduledExecutor();
        ScheduledExecutorService clock = Executors.newScheduledThreadPool(4);
        if (print) {
            System.out.printf("steady: %d claims/s for %d s%s; %d servers; games of %d ms (UTILIZED, then deregister and"
                    + " register anew); heartbeats every %d s, after an unprinted round of %d s%n", rate, seconds,
                    throughEdge ? " through the edge (SigV4)" : " in this JVM", servers, gameMillis, heartbeatSeconds,
                    WARM_UP_SECONDS);
        }
        // One unprinted claim first, as in the sparse pattern: the container has read the group once,
        // as a warm container has (its first claim of a group, and the claims that wait for it, are
        // the cold start's, not the steady state's).
        ClaimBenchmark.endGame(profile, group, claimer.claim().orElseThrow(), instance.instanceId(), live, nextId);
        calls.reset();
        if (edgeTimes != null) {
            edgeTimes.take();
        }
        long endpointAtStart = endpoint == null ? 0 : endpoint.requests();
        if (endpoint != null) {
            endpoint.takeLatencies();
        }
        long jvmCpuAtStart = jvmCpuNanos();
        long[] gcAtStart = gcPauses();
        long emulatorCpuAtStart = cpuNanos(emulator);
        double loadAtStart = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        long start = System.nanoTime();
        long periodNanos = 1_000_000_000L / rate;
        AtomicLong arrived = new AtomicLong();
        long total = (long) rate * seconds;
        arrivals.scheduleAtFixedRate(() -> {
            long n = arrived.getAndIncrement();
            if (n >= total) {
                return;
            }
            long scheduled = start + n * periodNanos;
            claimers.submit(() -> {
                Benchmarks.DynamoDbCalls.as("claim");
                long started = System.nanoTime();
                long callsBefore = Benchmarks.DynamoDbCalls.threadCalls();
                long callNanosBefore = Benchmarks.DynamoDbCalls.threadCallNanos();
                Optional<String> claimed = claimer.claim();
                if (claimed.isEmpty()) {
                    outOfCapacity.incrementAndGet();
                    return null;
                }
                measured.add(scheduled, started, System.nanoTime(), Benchmarks.DynamoDbCalls.threadCalls() - callsBefore,
                        Benchmarks.DynamoDbCalls.threadCallNanos() - callNanosBefore);
                Benchmarks.DynamoDbCalls.as("game");
                service.update(new Update(group, claimed.get(), Optional.empty(), Optional.of(UtilizationStatus.UTILIZED),
                        false), Caller.UNBOUND);
                clock.schedule(() -> workers.submit(() -> ClaimBenchmark.endGame(profile, group, claimed.get(),
                        instance.instanceId(), live, nextId)), gameMillis, TimeUnit.MILLISECONDS);
                return null;
            });
        }, 0, periodNanos, TimeUnit.NANOSECONDS);
        // Heartbeats: every server once per period, spread over it.
        long heartbeatPeriod = Math.max(1, heartbeatSeconds * 1_000_000L / Math.max(1, servers));
        AtomicInteger cursor = new AtomicInteger();
        clock.scheduleAtFixedRate(() -> workers.submit(() -> {
            String id;
            synchronized (live) {
                if (live.isEmpty()) {
                    return;
                }
                id = live.get(Math.floorMod(cursor.getAndIncrement(), live.size()));
            }
            Benchmarks.DynamoDbCalls.as("heartbeat");
            try {
                service.update(new Update(group, id, Optional.empty(), Optional.empty(), true), Caller.UNBOUND);
                heartbeats.incrementAndGet();
            } catch (GamefleetException gone) {
                // ended its game meanwhile
            }
        }), 0, heartbeatPeriod, TimeUnit.MICROSECONDS);
        Thread.sleep(seconds * 1000L + 200);
        arrivals.shutdownNow();
        clock.shutdownNow();
        claimers.shutdown();
        claimers.awaitTermination(30, TimeUnit.SECONDS);
        workers.shutdown();
        workers.awaitTermination(30, TimeUnit.SECONDS);
        double elapsed = (System.nanoTime() - start) / 1e9;
        double jvmCores = (jvmCpuNanos() - jvmCpuAtStart) / 1e9 / elapsed;
        double emulatorCores = (cpuNanos(emulator) - emulatorCpuAtStart) / 1e9 / elapsed;
        long[] gc = gcPauses();
        if (edgeTimes != null) {
            edgeTimes.remove();
        }
        if (!print) {
            return;
        }
        int claims = measured.total.count();
        System.out.printf("%-10s %9s %9s %9s %11s %10s %8s %8s%n", "", "offered/s", "claims/s", "no server",
                "calls/claim", "WU/claim", "p50 ms", "p99 ms");
        System.out.printf("%-10s %9d %9.0f %9d %11.2f %10.2f %8.1f %8.1f%n", "claims", rate, claims / elapsed,
                outOfCapacity.get(), (double) calls.calls(claimCalls) / claims, calls.writeUnits(claimCalls) / claims,
                measured.total.percentile(0.5), measured.total.percentile(0.99));
        String latencyFile = System.getProperty("bench.latencyFile");
        if (latencyFile != null) {
            // One line per claim: milliseconds from the round's start to its scheduled arrival, and its latency.
            try (java.io.PrintWriter out = new java.io.PrintWriter(latencyFile)) {
                measured.each.forEach(e -> out.printf("%.1f %.2f%n", (e[0] - start) / 1e6, e[1] / 1e6));
            }
        }
        if (edgeTimes == null) {
            measured.print();
        } else {
            measured.printThroughEdge(edgeTimes.take());
        }
        System.out.printf("GC: %d collections, %d ms in all; CPU: this JVM (the functions, the benchmark's claimers,"
                + " heartbeats and games) %.2f cores, the emulator %.2f cores, of the machine's %d; load average %.1f to %.1f%n",
                gc[0] - gcAtStart[0], gc[1] - gcAtStart[1], jvmCores, emulatorCores,
                Runtime.getRuntime().availableProcessors(), loadAtStart,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        calls.latencyByCall().forEach((operation, l) -> System.out.printf("  DynamoDB %s at the client (all operations):"
                + " %d calls, p50 %.1f ms, p99 %.1f ms%n", operation, l.count(), l.percentile(0.5), l.percentile(0.99)));
        System.out.printf("%-10s %9s %9.0f %9s %11.2f %10.2f%n", "heartbeats", "", heartbeats.get() / elapsed, "",
                (double) calls.calls("heartbeat") / heartbeats.get(), calls.writeUnits("heartbeat") / heartbeats.get());
        System.out.printf("per game (UTILIZED, deregister, register): %.2f calls, %.2f write units%n",
                (double) calls.calls("game") / claims, calls.writeUnits("game") / claims);
        if (endpoint != null) {
            System.out.printf("at the endpoint: %.2f DynamoDB calls per claim, all operations together (the client counted"
                    + " %.2f)%n", (double) (endpoint.requests() - endpointAtStart) / claims, (double) calls.get() / claims);
            Benchmarks.Latencies atProxy = endpoint.takeLatencies();
            System.out.printf("  DynamoDB calls at the proxy (the emulator and the hop, all operations): %d, p50 %.1f ms,"
                    + " p99 %.1f ms%n", atProxy.count(), atProxy.percentile(0.5), atProxy.percentile(0.99));
        }
    }

    /**
     * Where a steady claim's time went, each part from its scheduled arrival: waiting for a thread
     * to start it (the benchmark's side), in the claim, and in the claim outside its DynamoDB calls
     * (the claim's own code, and any wait for a core or a GC pause); and claims of one call (the
     * write) apart from those that read candidates first. Through the edge, "in the claim" is the
     * edge request at the client, and its DynamoDB calls are the edge's threads', not the claimer's.
     */
    private static final class Breakdown {
        final Benchmarks.Latencies total = new Benchmarks.Latencies();
        final Benchmarks.Latencies waiting = new Benchmarks.Latencies();
        final Benchmarks.Latencies inClaim = new Benchmarks.Latencies();
        final Benchmarks.Latencies outsideCalls = new Benchmarks.Latencies();
        final Benchmarks.Latencies oneCall = new Benchmarks.Latencies();
        final Benchmarks.Latencies readFirst = new Benchmarks.Latencies();
        /** Each claim's scheduled arrival and latency, in nanoseconds, for {@code -Dbench.latencyFile}. */
        final java.util.concurrent.ConcurrentLinkedQueue<long[]> each = new java.util.concurrent.ConcurrentLinkedQueue<>();

        void add(long scheduled, long started, long ended, long dynamoDbCalls, long dynamoDbNanos) {
            each.add(new long[] {scheduled, ended - scheduled});
            total.add(ended - scheduled);
            waiting.add(started - scheduled);
            inClaim.add(ended - started);
            outsideCalls.add(ended - started - dynamoDbNanos);
            (dynamoDbCalls == 1 ? oneCall : readFirst).add(ended - scheduled);
        }

        void print() {
            System.out.printf("  waiting to start: p50 %.1f ms, p99 %.1f ms; in the claim: p50 %.1f ms, p99 %.1f ms; in it"
                    + " outside its DynamoDB calls: p50 %.2f ms, p99 %.1f ms%n", waiting.percentile(0.5),
                    waiting.percentile(0.99), inClaim.percentile(0.5), inClaim.percentile(0.99),
                    outsideCalls.percentile(0.5), outsideCalls.percentile(0.99));
            System.out.printf("  claims of one DynamoDB call (the write): %d, p50 %.1f ms, p99 %.1f ms; reading candidates"
                    + " first: %d, p50 %.1f ms, p99 %.1f ms%n", oneCall.count(), oneCall.percentile(0.5),
                    oneCall.percentile(0.99), readFirst.count(), readFirst.percentile(0.5), readFirst.percentile(0.99));
        }

        /** What the edge adds: the request at the client beside the edge server's time for it. */
        void printThroughEdge(Benchmarks.Latencies atServer) {
            System.out.printf("  waiting to start: p50 %.1f ms, p99 %.1f ms; the edge request at the client (signed, sent,"
                    + " answered): p50 %.1f ms, p99 %.1f ms; at the edge server (first byte to answer: SigV4, the"
                    + " function, the claim): %d, p50 %.1f ms, p99 %.1f ms%n", waiting.percentile(0.5),
                    waiting.percentile(0.99), inClaim.percentile(0.5), inClaim.percentile(0.99), atServer.count(),
                    atServer.percentile(0.5), atServer.percentile(0.99));
        }
    }

    /** This JVM's garbage collections so far: their count and their time in milliseconds. */
    private static long[] gcPauses() {
        long[] sum = new long[2];
        ManagementFactory.getGarbageCollectorMXBeans().forEach(gc -> {
            sum[0] += Math.max(0, gc.getCollectionCount());
            sum[1] += Math.max(0, gc.getCollectionTime());
        });
        return sum;
    }

    /** The CPU time this JVM used so far, all its threads. */
    private static long jvmCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** The CPU time a process and its descendants used so far. */
    private static long cpuNanos(ProcessHandle process) {
        return Stream.concat(Stream.of(process), process.descendants())
                .mapToLong(p -> p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L)).sum();
    }
}
