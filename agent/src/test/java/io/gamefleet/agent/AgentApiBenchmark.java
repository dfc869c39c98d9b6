package io.gamefleet.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * API requests and push channel messages per game-server-hour: agents on a simulated hour (the real
 * supervisor and FleetSync, fake processes that beat every second, matches of random length after
 * random waits), health every 30 s, once with the push channel open (one health report per instance
 * and period, and the connection's pings every pushPingSeconds with their pongs) and once with it
 * down (every server's UpdateGameServer, the fallback); against a game server that calls the API itself. DynamoDB write units need the cloud side: AgentCostBenchmark in
 * the bench module counts them. Prints figures; asserts nothing.
 *
 * <pre>mvn -q -pl agent -am test-compile exec:java -Dexec.mainClass=io.gamefleet.agent.AgentApiBenchmark -Dexec.classpathScope=test [-Dexec.args="50 4 3600"]</pre>
 */
public final class AgentApiBenchmark {
    private AgentApiBenchmark() {}

    private record Run(long calls, long registers, long updates, long deregisters, long messages, long heartbeats,
            double hours) {}

    /** The push channel, always open: it counts what it is given. */
    private static final class CountingChannel implements HealthChannel {
        long messages;

        @Override
        public boolean send(String text) {
            messages++;
            return true;
        }
    }

    public static void main(String[] args) throws Exception {
        int instances = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        int perInstance = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 3600;
        Run open = simulate(instances, perInstance, seconds, true);
        Run down = simulate(instances, perInstance, seconds, false);
        System.out.printf("%d instances x %d processes, %d s simulated, health every 30 s: %.1f game-server-hours, "
                + "%d game servers registered, %d local heartbeats%n", instances, perInstance, seconds, open.hours(),
                open.registers(), open.heartbeats());
        print("agent, push channel open", open);
        // The push connection's own: a ping every pushPingSeconds per instance, and its pong, whatever the reports.
        double pings = (double) instances * seconds / AgentConfig.Timings.DEFAULTS.pushPingSeconds();
        System.out.printf("agent, push channel open: %.0f pings and as many pongs = %.1f messages per game-server-hour, "
                + "%.1f with the health reports%n", pings, 2 * pings / open.hours(), (2 * pings + open.messages()) / open.hours());
        print("agent, push channel down", down);
        System.out.printf("a game server calling the API itself, one UpdateGameServer per GSDK heartbeat (1 s): %.1f per "
                + "game-server-hour (register, UTILIZED and deregister included)%n",
                open.heartbeats() / open.hours() + (open.registers() * 2 + open.deregisters()) / open.hours());
        System.out.printf("a game server calling the API itself, health every 30 s: %.1f per game-server-hour "
                + "(the same included)%n", 120 + (open.registers() * 2 + open.deregisters()) / open.hours());
    }

    private static void print(String what, Run r) {
        System.out.printf("%s: %d API requests (%d RegisterGameServer, %d UpdateGameServer, %d DeregisterGameServer) = "
                + "%.1f per game-server-hour; %d push channel messages = %.1f per game-server-hour%n", what, r.calls(),
                r.registers(), r.updates(), r.deregisters(), r.calls() / r.hours(), r.messages(), r.messages() / r.hours());
    }

    private static Run simulate(int instances, int perInstance, int seconds, boolean channelOpen) throws Exception {
        Random random = new Random(20);
        List<AgentFixture> agents = new ArrayList<>();
        List<CountingChannel> channels = new ArrayList<>();
        Path work = Files.createTempDirectory("agent-bench");
        for (int i = 0; i < instances; i++) {
            AgentFixture a = new AgentFixture(work.resolve("i" + i), "{\"processes\": " + perInstance
                    + ", \"ports\": {\"game\": {\"from\": 7000, \"to\": 7999}}, \"timings\": {\"healthPeriodSeconds\": 30}}");
            CountingChannel channel = new CountingChannel();
            if (channelOpen) {
                a.supervisor.healthChannel(channel);
            }
            agents.add(a);
            channels.add(channel);
        }
        long heartbeats = 0;
        double serverSeconds = 0;
        Map<ServerRecord, Integer> matchEnds = new java.util.HashMap<>();
        for (int t = 0; t < seconds; t++) {
            for (AgentFixture a : agents) {
                a.clock.advanceSeconds(1);
                a.tick();
                for (ProcessSlots.Slot slot : a.supervisor.slots()) {
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
        return new Run(agents.stream().mapToLong(a -> a.api.calls.size()).sum(),
                agents.stream().mapToLong(a -> a.api.count("register")).sum(),
                agents.stream().mapToLong(a -> a.api.count("update")).sum(),
                agents.stream().mapToLong(a -> a.api.count("deregister")).sum(),
                channels.stream().mapToLong(c -> c.messages).sum(), heartbeats, serverSeconds / 3600);
    }
}
