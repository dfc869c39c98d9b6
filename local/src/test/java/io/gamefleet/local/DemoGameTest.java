package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.local.agents.InstanceAgents;
import io.gamefleet.local.demo.DemoGame;
import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code local/run --demo}, as Main wires it: the demo group, its matchmaker, and on each of its
 * instances the agent running the demo game server ({@code DemoGameServer}, a child JVM speaking the
 * GSDK protocol) with real processes: registered when StandingBy, claimed, Active with the claim's
 * data, players joining and leaving, its exit, deregistered, archived, replaced. Another group's
 * instances run no agent.
 */
class DemoGameTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension().inRealTime()
            .localOnly("the demo game runs in the profile's process and its game servers under the simulated instances' agents");

    private static final Pattern CLAIMED = Pattern.compile("match-1: claimed game server (gs-[0-9a-f]+) on (i-[0-9a-f]+) .*");

    private final List<String> log = new CopyOnWriteArrayList<>();
    private final AgentsOnProfile servers = new AgentsOnProfile(LOCAL, DemoGame.GROUP);

    @Test
    void theDemoGameServersRunUnderTheAgentGetClaimedPlayExitAndAreReplaced() throws Exception {
        LocalProfile profile = LOCAL.profile();
        GamefleetClient api = LOCAL.admin();
        List<String> agentLines = new CopyOnWriteArrayList<>();
        InstanceAgents agents = profile.runAgents(DemoGame.agentTemplate("1"), agentLines::add); // players stay 1 s
        api.createActive(GamefleetClient.groupBody("other", 1, 1));
        try (DemoGame demo = DemoGame.calling(profile.endpoint(), profile.region(), LocalProfileExtension.ADMIN, profile.fleet(),
                LOCAL.signingClock(), log::add)) {
            demo.tick(); // creates the group
            demo.runEverySecond();
            assertThat(api.awaitGroup(DemoGame.GROUP, Set.of("ACTIVE", "ERROR"), GamefleetClient.WORKFLOW).get("Status")
                    .asText()).as("%s", log).isEqualTo("ACTIVE");

            Matcher claimed = AgentsOnProfile.await("the matchmaker's first claim (" + log + ")", () -> log.stream()
                    .map(CLAIMED::matcher).filter(Matcher::matches).findFirst().orElse(null));
            String id = claimed.group(1);
            String instance = claimed.group(2);
            AgentsOnProfile.await("the match played out in the process", () -> servers.console(instance, id)
                    .contains("match over: exiting") ? id : null);
            String played = servers.console(instance, id);
            assertThat(played).contains("ready for players (StandingBy)", "Active: match match-1", "player-1 joined",
                    "player-1 left (0 playing)").doesNotContain("refused");

            AgentsOnProfile.await("deregistered", () -> api.describeServer(DemoGame.GROUP, id).status() == 404 ? id : null);
            JsonNode report = servers.report(agents.archive(), instance, id);
            assertThat(report.path("exitCode").asInt(-1)).as("%s", report).isZero();
            assertThat(report.path("lastState").asText()).isEqualTo("Terminated");
            assertThat(Files.readString(agents.archive().resolve(DemoGame.GROUP).resolve(instance).resolve(id)
                    .resolve("PF_ConsoleLogs.txt"))).contains("match over");
            AgentsOnProfile.await("a new demo game server in its place", () -> servers.registered(instance).size()
                    == DemoGame.SERVERS_PER_INSTANCE && !servers.registered(instance).contains(id) ? id : null);
            assertThat(api.listServers(DemoGame.GROUP, "").ok().body().path("GameServers"))
                    .allSatisfy(s -> assertThat(s.path("ConnectionInfo").asText()).startsWith("127.0.0.1:"));
        }
        String other = profile.fleet().instancesOf("other").get(0).instanceId();
        assertThat(agents.instances()).as("only the demo group's instances run the demo's agent").doesNotContain(other)
                .isNotEmpty();
        assertThat(agentLines).as("the agents' own lines, and no Jetty start line per instance")
                .anyMatch(l -> l.contains(": started, pid ")).noneMatch(l -> l.contains(":oejs."));
        assertThat(log).noneMatch(line -> line.contains("failed") || line.contains("stops"));
    }
}
