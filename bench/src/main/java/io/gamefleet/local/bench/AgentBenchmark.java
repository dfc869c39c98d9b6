package io.gamefleet.local.bench;

import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.GameServerService.Claim;
import io.gamefleet.domain.Page;
import io.gamefleet.domain.UtilizationStatus;
import io.gamefleet.local.LocalProfile;
import io.gamefleet.local.agents.AgentTemplate;
import io.gamefleet.local.agents.InstanceAgents;
import io.gamefleet.local.process.Emulators;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Claim to Active with real agents and real processes: the local profile's agents on every
 * instance of one group (all in one agent JVM), each running the agent's scripted GSDK game server
 * (python3), then claims one after another, each timed from the ClaimGameServer call to the
 * agent's log line that its notice came (the agents' output, read as it is written) and to the
 * process's output showing it was told Active (its console log, polled every 2 ms), after which its
 * match ends and the agent replaces it. {@code beats}: {@code cpp}, the C++ GSDK's timing (the
 * interval the agent answers, at least a second), or {@code java}, the Java GSDK's (the interval
 * answered, which is short while StandingBy). Run from the repository's top folder:
 * {@code AgentBenchmark [instances, default 50] [servers per instance, 4] [claims, 200] [beats: cpp or java, cpp]}.
 */
public final class AgentBenchmark {
    private static final String GROUP = "agents";
    private static final int WARM_UP = 20;
    private static final long ACTIVE_TIMEOUT_NANOS = 10_000_000_000L;
    private static final Pattern CLAIMED_LINE = Pattern.compile(" INFO (\\S+): claimed");

    private AgentBenchmark() {}

    public static void main(String[] args) throws Exception {
        int instances = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        int perInstance = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int claims = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        String beats = args.length > 3 ? args[3] : "cpp";
        Path matches = matchesFolder();
        AgentTemplate servers = scriptedServers(matches, beats, perInstance);
        try (LocalProfile profile = Benchmarks.start(new Benchmarks.DynamoDbCalls())) {
            Benchmarks.createActive(profile, GROUP, instances, instances, List.of("c5.large", "m5.large"));
            long started = System.nanoTime();
            Map<String, Long> noticed = new ConcurrentHashMap<>();
            InstanceAgents agents = profile.runAgents(servers, line -> noticeSeen(line, noticed));
            awaitReady(profile, instances, instances * perInstance);
            System.out.printf("%d agents, %d game server processes: all StandingBy, registered and connected in %.1f s%n",
                    instances, instances * perInstance, (System.nanoTime() - started) / 1e9);

            Benchmarks.Latencies claimCall = new Benchmarks.Latencies();
            Benchmarks.Latencies toAgent = new Benchmarks.Latencies();
            Benchmarks.Latencies toActive = new Benchmarks.Latencies();
            int missed = 0;
            for (int i = 0; i < claims + WARM_UP; i++) {
                String data = "match-" + i;
                long start = System.nanoTime();
                GameServer claimed = profile.services().gameServers().claim(new Claim(GROUP, Optional.empty(),
                        Optional.of(data), Optional.empty()));
                long claimedAt = System.nanoTime();
                Path console = consoleLog(agents, claimed.instanceId(), claimed.gameServerId());
                boolean active = awaitActive(console, "ACTIVE cookie=" + data, start);
                long activeAt = System.nanoTime();
                if (i >= WARM_UP) {
                    claimCall.add(claimedAt - start);
                    Long agentAt = noticed.get(claimed.gameServerId());
                    if (agentAt != null) {
                        toAgent.add(agentAt - start);
                    }
                    if (active) {
                        toActive.add(activeAt - start);
                    } else {
                        missed++;
                    }
                }
                Files.writeString(matches.resolve("over-" + claimed.gameServerId()), ""); // its match ends; it is replaced
            }
            System.out.printf("claims: %d measured (after %d warm-up), one at a time, in-process ClaimGameServer, dynoxide;"
                    + " heartbeats timed as the %s GSDK times them%n", claims, WARM_UP, beats.equals("cpp") ? "C++" : "Java");
            System.out.printf("%-44s %8s %8s %8s%n", "", "p50 ms", "p99 ms", "max ms");
            row("ClaimGameServer call", claimCall);
            row("claim start to the agent's notice", toAgent);
            row("claim start to Active in the process", toActive);
            System.out.printf("not Active within %d s: %d%n", ACTIVE_TIMEOUT_NANOS / 1_000_000_000L, missed);
        }
    }

    /**
     * The agent's scripted GSDK game server ({@code python3}) as every instance's {@code perInstance}
     * processes, heartbeating as the {@code beats} ({@code cpp} or {@code java}) GSDK times them; a
     * process's match ends when the file {@code over-<its id>} appears in {@code matches}.
     */
    static AgentTemplate scriptedServers(Path matches, String beats, int perInstance) throws IOException,
            InterruptedException {
        if (!beats.equals("cpp") && !beats.equals("java")) {
            throw new IllegalArgumentException("beats is cpp or java, not " + beats);
        }
        Path script = Emulators.home().resolve("../agent/src/test/resources/scripted_gsdk_server.py").normalize();
        if (!Files.isRegularFile(script) || new ProcessBuilder("python3", "--version").start().waitFor() != 0) {
            throw new IllegalStateException("needs python3 and " + script + " (run from the repository's top folder)");
        }
        return AgentTemplate.gameServer("exec python3 -u " + script + " " + matches.resolve("over-{gameServerId}")
                + " " + beats, perInstance);
    }

    /** A folder for the scripted servers' end files, which they see when they run as uids of their own (as root). */
    static Path matchesFolder() throws IOException {
        return TemporaryFolders.make("gamefleet-agent-bench-", java.nio.file.attribute.PosixFilePermissions
                .asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x")));
    }

    /** A game server's console log, where the scripted server prints {@code ACTIVE cookie=<its session's cookie>}. */
    static Path consoleLog(InstanceAgents agents, String instanceId, String gameServerId) {
        return agents.serversFolder().resolve(instanceId).resolve(gameServerId).resolve("logs/PF_ConsoleLogs.txt");
    }

    /** The time an agent logged a claim's notice ({@code agent: <time> INFO <id>: claimed...}), by game server id. */
    private static void noticeSeen(String line, Map<String, Long> noticed) {
        long now = System.nanoTime();
        Matcher m = CLAIMED_LINE.matcher(line);
        if (m.find()) {
            noticed.putIfAbsent(m.group(1), now);
        }
    }

    private static void row(String what, Benchmarks.Latencies l) {
        System.out.printf("%-44s %8.1f %8.1f %8.1f%n", what, l.percentile(0.5), l.percentile(0.99), l.percentile(1));
    }

    /** Every process StandingBy and registered, and every instance's push channel open (real time). */
    private static void awaitReady(LocalProfile profile, int instances, int servers) throws InterruptedException {
        long deadline = System.nanoTime() + 300_000_000_000L;
        while (System.nanoTime() < deadline) {
            Page<GameServer> page = profile.services().gameServers().list(GROUP, Optional.empty(), 1000, Optional.empty());
            long available = page.items().stream().filter(s -> s.utilizationStatus() == UtilizationStatus.AVAILABLE
                    && !s.isClaimedAt(java.time.Instant.now())).count();
            long connected = profile.services().groups().describeInstances(GROUP, Optional.empty(), 1000, Optional.empty())
                    .items().stream().map(GameServerInstance::pushConnectionId).filter(c -> c != null).count();
            if (available >= servers && connected >= instances) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the agents' servers were not all registered and connected within 300 s");
    }

    private static boolean awaitActive(Path console, String line, long start) throws IOException, InterruptedException {
        while (System.nanoTime() - start < ACTIVE_TIMEOUT_NANOS) {
            if (Files.exists(console) && Files.readString(console).contains(line)) {
                return true;
            }
            Thread.sleep(2);
        }
        return false;
    }
}
