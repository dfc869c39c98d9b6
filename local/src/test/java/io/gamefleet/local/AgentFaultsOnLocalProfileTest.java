package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.local.agents.AgentTemplate;
import io.gamefleet.local.agents.InstanceAgents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code local/run --agent-config}, end to end with real processes, where things go wrong: the agent's
 * scripted GSDK game server ({@code ScriptedGsdkServer}, a child JVM, camelCase keys as the Java GSDK
 * sends them) crashing while StandingBy, one that never heartbeats (the start timeout), and the
 * agents' JVM SIGKILLed mid-match, which the profile starts again and whose agents adopt the match.
 * Each process reads its mode from a file when it starts, so a test sets what the next process does.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AgentFaultsOnLocalProfileTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension().inRealTime()
            .localOnly("the simulated instances' agents");

    private static final String GROUP = "agent-faults";

    @TempDir
    static Path folder;
    private static Path mode;
    private static String instance;
    private static InstanceAgents agents;
    /** The process started after the crash: silent, so the start timeout stops it. */
    private static String silent;

    private final AgentsOnProfile servers = new AgentsOnProfile(LOCAL, GROUP);

    @BeforeAll
    static void aGroupOfOneInstanceWithItsAgent() throws IOException {
        // Run as root, the processes are uids of their own: they read the mode and end files by their names here.
        java.nio.file.Files.setPosixFilePermissions(folder, java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
        mode = folder.resolve("mode");
        mode("crash-standing-by-when");
        String server = AgentsOnProfile.agentTestMain("ScriptedGsdkServer").stream().map(a -> "'" + a + "'")
                .collect(Collectors.joining(" "));
        String line = "exec " + server + " \"$(cat '" + mode + "')\" '" + folder + "/end-{gameServerId}'";
        Path config = AgentsOnProfile.agentConfig(folder, """
                {"command": "sh", "args": ["-c", %s], "ports": {"game": {}},
                 "timings": {"startTimeoutSeconds": 6, "heartbeatTimeoutSeconds": 6, "stopGraceSeconds": 1,
                             "terminateNoticeSeconds": 1, "crashBackoffInitialSeconds": 0.2, "crashBackoffMaxSeconds": 1}}
                """.formatted(new ObjectMapper().writeValueAsString(line)));
        LOCAL.admin().createActive(GamefleetClient.groupBody(GROUP, 1, 1));
        instance = LOCAL.profile().fleet().instancesOf(GROUP).get(0).instanceId();
        agents = LOCAL.profile().runAgents(AgentTemplate.read(config));
    }

    @Test
    @Order(1)
    void aProcessThatCrashesWhileStandingByIsDeregisteredItsLogsArchivedWithItsReportAndItIsReplaced() throws Exception {
        String id = AgentsOnProfile.await("a server AVAILABLE", () -> servers.available(instance).orElse(null))
                .get("GameServerId").asText();
        mode("silent");
        end(id);
        AgentsOnProfile.await("deregistered", () -> LOCAL.admin().describeServer(GROUP, id).status() == 404 ? id : null);
        JsonNode report = servers.report(agents.archive(), instance, id);
        assertThat(report.path("exitCode").asInt()).as("%s", report).isEqualTo(3);
        assertThat(report.path("lastState").asText()).isEqualTo("StandingBy");
        assertThat(archived(id)).contains("CRASHING while StandingBy");
        silent = AgentsOnProfile.await("a new process in its place, under a new id", () -> servers.started(instance)
                .stream().filter(s -> !s.equals(id) && servers.console(instance, s).contains("CHILD ")).findFirst()
                .orElse(null));
    }

    @Test
    @Order(2)
    void aProcessThatNeverHeartbeatsIsStoppedAtTheStartTimeoutWithItsProcessGroupAndReplaced() throws Exception {
        mode("match-until");
        long child = Long.parseLong(servers.console(instance, silent).lines().filter(l -> l.startsWith("CHILD "))
                .findFirst().orElseThrow().substring(6).trim());
        JsonNode report = servers.report(agents.archive(), instance, silent);
        assertThat(report.path("stopReason").asText()).as("%s", report).contains("start timeout");
        assertThat(archived(silent)).as("TERM, ignored, then KILL").contains("TERM ignored");
        AgentsOnProfile.await("the child in its process group killed too",
                () -> ProcessHandle.of(child).map(h -> !h.isAlive()).orElse(true) ? child : null);
        String next = AgentsOnProfile.await("a server AVAILABLE in its place",
                () -> servers.available(instance).orElse(null)).get("GameServerId").asText();
        assertThat(next).isNotEqualTo(silent);
    }

    @Test
    @Order(3)
    void theAgentsJvmSigkilledMidMatchIsStartedAgainAndItsAgentAdoptsTheMatchUntilItEnds() throws Exception {
        String id = AgentsOnProfile.await("a server AVAILABLE", () -> servers.available(instance).orElse(null))
                .get("GameServerId").asText();
        AgentsOnProfile.await("the agent's push connection", () -> servers.pushConnection(instance).orElse(null));
        LOCAL.matchmaker().claim(GROUP, GamefleetClient.obj().put("GameServerId", id).put("GameServerData", "map=kill")).ok();
        AgentsOnProfile.await("ACTIVE in the process", () -> servers.console(instance, id).contains("ACTIVE cookie=map=kill") ? id : null);
        AgentsOnProfile.await("UTILIZED", () -> utilization(id).equals("UTILIZED") ? id : null);
        // Mid-match as far as the agent knows: its state file, written a round after a change, says Active.
        Path stateFile = agents.instancesFolder().resolve(instance).resolve("agent-state.json");
        AgentsOnProfile.await("Active in the agent's state file", () -> {
            try {
                return new ObjectMapper().readTree(stateFile.toFile()).path("servers").get(0).path("state").asText().equals("Active") ? id : null;
            } catch (IOException | RuntimeException e) {
                return null; // being replaced
            }
        });
        ProcessHandle killed = agentsJvm().orElseThrow();
        ProcessHandle match = killed.children().findFirst().orElseThrow(); // setsid, then sh, exec: one process
        killed.destroyForcibly(); // SIGKILL
        ProcessHandle restarted = AgentsOnProfile.await("the agents' JVM started again by the profile", () -> agentsJvm()
                .filter(h -> h.pid() != killed.pid()).orElse(null));
        // The old agent is gone once its JVM is: any heartbeat answered from now on, the new one answered
        // (its restart can be quicker than the match's next heartbeat, so none need have failed).
        long answeredBefore = beats(id);
        AgentsOnProfile.await("the match's heartbeats answered by the new agent", () -> beats(id) > answeredBefore ? id : null);
        assertThat(match.isAlive()).as("the match goes on").isTrue();
        assertThat(utilization(id)).isEqualTo("UTILIZED");
        assertThat(servers.console(instance, id)).as("the adopted process keeps its session host id").doesNotContain("REFUSED");

        end(id);
        AgentsOnProfile.await("deregistered when its process ends", () -> LOCAL.admin().describeServer(GROUP, id)
                .status() == 404 ? id : null);
        servers.report(agents.archive(), instance, id);
        assertThat(archived(id)).contains("MATCH OVER");
        String next = AgentsOnProfile.await("a server AVAILABLE in its place",
                () -> servers.available(instance).orElse(null)).get("GameServerId").asText();
        assertThat(servers.registered(instance)).as("nothing registered without a process").containsExactly(next);
        assertThat(match.isAlive()).isFalse();
        assertThat(restarted.children().filter(ProcessHandle::isAlive).count()).as("the replacement's process").isEqualTo(1);
    }

    /** The heartbeats the scripted server's console says were answered. */
    private long beats(String id) {
        return servers.console(instance, id).lines().filter(l -> l.startsWith("BEAT ")).count();
    }

    private String utilization(String id) {
        return LOCAL.admin().describeServer(GROUP, id).ok().server().path("UtilizationStatus").asText();
    }

    /** The profile's child JVM running every instance's agent. */
    private static Optional<ProcessHandle> agentsJvm() {
        return ProcessHandle.current().children().filter(ProcessHandle::isAlive)
                .filter(p -> p.info().commandLine().orElse("").contains("io.gamefleet.agent.AgentHostMain")).findFirst();
    }

    private String archived(String id) throws IOException {
        return Files.readString(agents.archive().resolve(GROUP).resolve(instance).resolve(id).resolve("PF_ConsoleLogs.txt"));
    }

    private static void mode(String next) throws IOException {
        Files.writeString(mode, next);
    }

    private static void end(String id) throws IOException {
        Files.writeString(folder.resolve("end-" + id), "");
    }
}
