package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent as the process it is on an instance: its start, its refusals, its SIGKILL and restart. */
class AgentProcessTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path work;
    private final List<Process> agents = new ArrayList<>();
    private FakeGamefleet gamefleet;

    @AfterEach
    void cleanUp() throws Exception {
        for (Process p : agents) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        Path state = work.resolve("agent/" + StateFile.NAME);
        if (Files.exists(state)) {
            for (JsonNode s : JSON.readTree(state.toFile()).path("servers")) {
                if (s.path("pid").asLong() > 0) {
                    ChildJvm.killGroup(s.path("pid").asLong());
                }
            }
        }
        if (gamefleet != null) {
            gamefleet.close();
        }
    }

    private Process agent(Path config, String logName) throws Exception {
        ChildJvm.traversable(work); // the path to serversDirectory, for the processes' own uids
        ProcessBuilder b = new ProcessBuilder(ChildJvm.java(), "-cp", System.getProperty("java.class.path"),
                AgentMain.class.getName(), config.toString())
                .redirectErrorStream(true).redirectOutput(work.resolve(logName).toFile());
        b.environment().put("AWS_EC2_METADATA_DISABLED", "true");
        Process p = b.start();
        agents.add(p);
        return p;
    }

    private String log(String name) {
        return ChildJvm.read(work.resolve(name));
    }

    /** An agent of {@code processes} scripted GSDK servers, each playing until {@code endFile} exists, against the stand-in. */
    private ObjectNode standInConfig(int processes, Path endFile) throws java.io.IOException {
        int gamePort = ChildJvm.freePort();
        ObjectNode c = JSON.createObjectNode().put("gameServerGroupName", "g").put("instanceId", "i-1")
                .put("region", "us-east-1").put("connectionAddress", "127.0.0.1")
                .put("apiEndpoint", "http://127.0.0.1:" + gamefleet.port())
                .put("pushEndpoint", "ws://127.0.0.1:" + gamefleet.port() + "/push")
                .put("command", ChildJvm.java()).put("processes", processes).put("gsdkPort", 0)
                .put("qosPort", 0)
                .put("workDirectory", work.resolve("agent").toString()).put("serversDirectory", work.resolve("servers").toString());
        ChildJvm.args(ScriptedGsdkServer.class, "match-until", endFile.toString()).forEach(c.putArray("args")::add);
        c.putObject("ports").putObject("game").put("from", gamePort).put("to", gamePort + processes - 1);
        return c;
    }

    @Test
    void aConfigurationErrorStopsTheAgentAtStartWithWhatToFix() throws Exception {
        Path config = Files.writeString(work.resolve("agent.json"),
                "{\"gameServerGroupName\": \"g\", \"ports\": {\"game\": {\"from\": 7000, \"to\": 7000}}, \"processes\": 2}");
        Process p = agent(config, "agent.log");
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(log("agent.log")).contains("command is missing").contains("has 1 ports for 2 processes");
    }

    @Test
    void sigkilledAndRestartedMidMatchTheAgentAdoptsItsProcessWhichIsDeregisteredWhenItEnds() throws Exception {
        gamefleet = new FakeGamefleet().start();
        Path endFile = work.resolve("end-match");
        ObjectNode c = standInConfig(1, endFile);
        c.putObject("timings").put("heartbeatTimeoutSeconds", 30).put("healthPeriodSeconds", 2);
        Path config = Files.writeString(work.resolve("agent.json"), c.toString());

        agent(config, "agent-1.log");
        ChildJvm.await("registered", () -> gamefleet.registered.size() == 1);
        String id = gamefleet.registered.keySet().iterator().next();
        ChildJvm.await("push channel open", gamefleet::pushOpen);
        assertThat(gamefleet.pushConnects.get(0).get("authorization"))
                .startsWith("AWS4-HMAC-SHA256 Credential=test/").contains("/us-east-1/execute-api/aws4_request");
        assertThat(gamefleet.pushConnects.get(0).get("query")).as("no beacon (qosPort 0), no qosPort")
                .isEqualTo("instanceId=i-1&gameServerGroupName=g");
        Instant now = Instant.now();
        gamefleet.push(JSON.createObjectNode().put("action", "claimed").put("gameServerGroupName", "g")
                .put("gameServerId", id).put("gameServerData", "{\"map\":\"dust2\"}")
                .put("claimedAt", now.toString()).put("claimExpiresAt", now.plusSeconds(60).toString()).toString());
        ChildJvm.await("UTILIZED", () -> "UTILIZED".equals(gamefleet.registered.get(id)));
        // over the push channel, which is open: one message for the instance's servers, no UpdateGameServer
        java.util.function.Supplier<Long> reports = () -> gamefleet.pushReceived.stream()
                .filter(m -> m.contains("\"action\":\"health\"") && m.contains(id)).count();
        ChildJvm.await("a health report", () -> reports.get() > 0);

        // The state file is saved a tick after a change: kill only once it has the match's Active, which
        // the new agent adopts (a report can arrive before that save).
        Path stateFile = work.resolve("agent/" + StateFile.NAME);
        ChildJvm.await("Active in the state file", () -> {
            try {
                return "Active".equals(JSON.readTree(stateFile.toFile()).path("servers").get(0).path("state").asText());
            } catch (java.io.IOException | RuntimeException e) {
                return false; // not written yet, or being replaced
            }
        });
        JsonNode saved = JSON.readTree(stateFile.toFile());
        long pid = saved.path("servers").get(0).path("pid").asLong();
        Process first = agents.get(0);
        first.destroyForcibly(); // SIGKILL
        assertThat(first.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).hasValue(true);

        agent(config, "agent-2.log");
        ChildJvm.await("adopted", () -> log("agent-2.log").contains(id + ": adopted pid " + pid + " (Active)"));
        ChildJvm.await("the same GSDK port", () -> log("agent-2.log").contains("GSDK endpoint 127.0.0.1:" + saved.path("gsdkPort").asInt()));
        long reported = reports.get();
        ChildJvm.await("health reported again by the new agent", () -> reports.get() > reported);
        assertThat(gamefleet.registered).containsEntry(id, "UTILIZED");

        Files.writeString(endFile, "");
        ChildJvm.await("deregistered when its match ends", () -> !gamefleet.registered.containsKey(id)
                && gamefleet.calls.contains("DeregisterGameServer " + id));
        Path archived = work.resolve("agent/archive/g/i-1").resolve(id);
        ChildJvm.await("archived", () -> Files.exists(archived.resolve(LogArchive.REPORT)));
        assertThat(ChildJvm.read(archived.resolve(GameServerLaunch.CONSOLE_LOG))).contains("ACTIVE cookie={\"map\":\"dust2\"}", "MATCH OVER");
        ChildJvm.await("a replacement registered", () -> gamefleet.registered.size() == 1 && !gamefleet.registered.containsKey(id));
    }

    @Test
    void aSpotNoticeInTheInstanceMetadataReachesTheProcessAsAMaintenanceEvent() throws Exception {
        gamefleet = new FakeGamefleet().start();
        gamefleet.metadata.put(InstanceMetadata.INSTANCE_ID, "i-0abc");
        gamefleet.metadata.put(InstanceMetadata.LOCAL_IPV4, "10.1.2.3");
        int gamePort = ChildJvm.freePort();
        ObjectNode c = JSON.createObjectNode().put("gameServerGroupName", "g").put("region", "us-east-1")
                .put("apiEndpoint", "http://127.0.0.1:" + gamefleet.port())
                .put("metadataEndpoint", "http://127.0.0.1:" + gamefleet.port())
                .put("command", ChildJvm.java()).put("processes", 1).put("gsdkPort", 0)
                .put("workDirectory", work.resolve("agent").toString()).put("serversDirectory", work.resolve("servers").toString());
        ChildJvm.args(ScriptedGsdkServer.class, "match-until", work.resolve("never").toString()).forEach(c.putArray("args")::add);
        c.putObject("ports").putObject("game").put("from", gamePort).put("to", gamePort);
        c.putObject("timings").put("metadataPollSeconds", 0.2);
        agent(Files.writeString(work.resolve("agent.json"), c.toString()), "agent.log");
        ChildJvm.await("registered", () -> gamefleet.registered.size() == 1);
        String id = gamefleet.registered.keySet().iterator().next();
        // The instance id and the address came from the metadata.
        assertThat(log("agent.log")).contains("agent of i-0abc in g");
        Path console = work.resolve("servers").resolve(id).resolve("logs").resolve(GameServerLaunch.CONSOLE_LOG);
        assertThat(ChildJvm.read(console)).doesNotContain("MAINTENANCE");
        gamefleet.metadata.put(InstanceMetadata.SPOT_INSTANCE_ACTION, "{\"action\": \"terminate\", \"time\": \"2026-12-01T10:02:00Z\"}");
        ChildJvm.await("the Spot notice in the process's console", () -> ChildJvm.read(console).contains("MAINTENANCE 2026-12-01T10:02:00Z Preempt"));
        assertThat(gamefleet.metadataReads).contains(InstanceMetadata.REBALANCE, InstanceMetadata.SCHEDULED_EVENTS);
    }
    @Test
    void sigtermEndsEveryProcessWithTerminateFirstDeregistersAndArchivesEachThenTheAgentExits() throws Exception {
        gamefleet = new FakeGamefleet().start();
        ObjectNode c = standInConfig(2, work.resolve("never"));
        Process agent = agent(Files.writeString(work.resolve("agent.json"), c.toString()), "agent.log");
        ChildJvm.await("both registered", () -> gamefleet.registered.size() == 2);
        ChildJvm.await("push channel open", gamefleet::pushOpen);
        List<String> ids = List.copyOf(gamefleet.registered.keySet());
        String match = ids.get(0);
        Instant now = Instant.now();
        gamefleet.push(JSON.createObjectNode().put("action", "claimed").put("gameServerGroupName", "g")
                .put("gameServerId", match).put("claimedAt", now.toString()).put("claimExpiresAt", now.plusSeconds(60).toString())
                .toString());
        ChildJvm.await("the match Active", () -> ChildJvm.read(work.resolve("servers").resolve(match).resolve("logs")
                .resolve(GameServerLaunch.CONSOLE_LOG)).contains("ACTIVE"));

        agent.destroy(); // SIGTERM, as systemd's stop sends it
        assertThat(agent.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(agent.exitValue()).as("the JVM's exit on SIGTERM, after its shutdown hook").isEqualTo(143);
        for (String id : ids) {
            Path archived = work.resolve("agent/archive/g/i-1").resolve(id);
            assertThat(archived.resolve(LogArchive.REPORT)).exists();
            assertThat(ChildJvm.read(archived.resolve(GameServerLaunch.CONSOLE_LOG))).as("told Terminate first").contains("TERMINATE");
            assertThat(JSON.readTree(archived.resolve(LogArchive.REPORT).toFile()).path("exitCode").asInt())
                    .as("it ended on its own after Terminate, before any TERM").isZero();
            assertThat(gamefleet.calls).contains("DeregisterGameServer " + id);
        }
        assertThat(gamefleet.registered).isEmpty();
        assertThat(log("agent.log")).contains("graceful end (the agent's stop").doesNotContain("; KILL");
    }
}
