package io.gamefleet.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * API requests per game-server-hour: agents on a simulated hour (the real supervisor and FleetSync,
 * fake processes that beat every second, matches of random length after random waits), against a
 * game server that calls the API itself. Prints figures; asserts nothing.
 *
 * <pre>mvn -q -pl agent test-compile exec:java -Dexec.mainClass=io.gamefleet.agent.AgentApiBenchmark -Dexec.classpathScope=test [-Dexec.args="50 4 3600"]</pre>
 */
public final class AgentApiBenchmark {
    private AgentApiBenchmark() {}

    public static void main(String[] args) throws Exception {
        int instances = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        int perInstance = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 3600;
        Random random = new Random(20);
        List<AgentFixture> agents = new ArrayList<>();
        Path work = Files.createTempDirectory("agent-bench");
        for (int i = 0; i < instances; i++) {
            agents.add(new AgentFixture(work.resolve("i" + i), "{\"processes\": " + perInstance + ", \"ports\": {\"game\": {\"from\": 7000, \"to\": 7999}}}"));
        }
        long heartbeats = 0;
        double serverSeconds = 0;
        Map<ServerRecord, Integer> matchEnds = new java.util.HashMap<>();
        for (int t = 0; t < seconds; t++) {
            for (AgentFixture a : agents) {
                a.clock.advanceSeconds(1);
                a.tick();
                for (Supervisor.Slot slot : a.supervisor.slots()) {
                    ServerRecord s = slot.current;
                    if (s == null) {
                        continue;
                    }
                    serverSeconds++;
                    GameState state = s.state == null ? GameState.Initializing
                            : s.state == GameState.Initializing ? GameState.StandingBy : s.state;
                    GsdkAnswer answer = a.beat(s, state);
                    heartbeats++;
                    if (answer instanceof GsdkAnswer.Reply r && r.body().path("operation").asText().equals("Active")) {
                        a.beat(s, GameState.Active);
                        heartbeats++;
                        matchEnds.put(s, t + 600 + random.nextInt(1200)); // a match of 10 to 30 minutes
                    }
                    if (s.state == GameState.StandingBy && s.claim == null && s.registration != ServerRecord.Registration.NONE
                            && random.nextInt(300) == 0) { // claimed after 5 min on average
                        Instant now = a.clock.instant();
                        a.supervisor.claimed(new Notices.Claimed(s.gameServerId, "d", now, now.plusSeconds(60)));
                    }
                    Integer end = matchEnds.get(s);
                    if (end != null && t >= end) {
                        ((FakeProcesses.Fake) s.process).exit(0);
                        matchEnds.remove(s);
                    }
                }
            }
        }
        long calls = agents.stream().mapToLong(a -> a.api.calls.size()).sum();
        long registers = agents.stream().mapToLong(a -> a.api.count("register")).sum();
        long updates = agents.stream().mapToLong(a -> a.api.count("update")).sum();
        long deregisters = agents.stream().mapToLong(a -> a.api.count("deregister")).sum();
        double hours = serverSeconds / 3600;
        System.out.printf("%d instances x %d processes, %d s simulated: %.1f game-server-hours, %d game servers registered, "
                + "%d local heartbeats%n", instances, perInstance, seconds, hours, registers, heartbeats);
        System.out.printf("agent: %d API requests (%d RegisterGameServer, %d UpdateGameServer, %d DeregisterGameServer) = "
                + "%.1f per game-server-hour; %.0f local heartbeats per game-server-hour%n",
                calls, registers, updates, deregisters, calls / hours, heartbeats / hours);
        System.out.printf("a game server calling the API itself, one UpdateGameServer per GSDK heartbeat (1 s): %.1f per "
                + "game-server-hour (register, UTILIZED and deregister included)%n", heartbeats / hours + (registers * 2 + deregisters) / hours);
        System.out.printf("a game server calling the API itself, FleetIQ's advice (health every 60 s): %.1f per game-server-hour "
                + "(the same included)%n",
                60 + (registers * 2 + deregisters) / hours);
    }
}
