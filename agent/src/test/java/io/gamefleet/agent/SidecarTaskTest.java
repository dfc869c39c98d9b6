package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.ContainerTasks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The sidecar as it runs in an ECS task, with real parts: the agent started as AgentMain starts it,
 * against ECS's task metadata endpoint and the task role's credentials (Jetty, {@link FakeEcsTask}) and the stand-in
 * Gamefleet over sockets, and "the game server container": the scripted GSDK server as a child
 * process the test starts itself, with GSDK_CONFIG_FILE naming the file the agent wrote.
 */
class SidecarTaskTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TASK_ARN = "arn:aws:ecs:us-east-1:111122223333:task/gamefleet/5a0ea1e8e1e84d0c9f5d0bd4a5c2b1f3";
    private static final StaticCredentialsProvider CREDENTIALS = StaticCredentialsProvider.create(
            AwsBasicCredentials.create("test", "test"));

    @TempDir Path work;
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final List<AutoCloseable> opened = new ArrayList<>();
    private Process gameServer;

    @AfterEach
    void cleanUp() throws Exception {
        if (gameServer != null) {
            gameServer.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
    }

    private ObjectNode config(FakeGamefleet gamefleet) {
        ObjectNode c = JSON.createObjectNode().put("mode", "sidecar").put("gameServerGroupName", "g").put("region", "us-east-1")
                .put("apiEndpoint", "http://127.0.0.1:" + gamefleet.port())
                .put("pushEndpoint", "ws://127.0.0.1:" + gamefleet.port() + "/push")
                .put("gsdkPort", 0).put("qosPort", 0)
                .put("gsdkConfigFile", work.resolve("gamefleet/gsdk.json").toString())
                .put("workDirectory", work.resolve("agent").toString());
        c.putObject("ports").putObject("game").put("from", 7777).put("to", 7777);
        c.putObject("timings").put("terminateNoticeSeconds", 1);
        return c;
    }

    private Agent.Context context(Map<String, String> environment) {
        return new Agent.Context(new AgentLog(java.time.Clock.systemUTC(), log::add), Privileges.ofThisProcess(), environment,
                delay -> Thread.sleep(delay.toMillis()), Backoff.NO_JITTER);
    }

    @Test
    void registeredClaimedActiveThenEndedAndDeregisteredAndTheSidecarIsOver() throws Exception {
        FakeGamefleet gamefleet = new FakeGamefleet().start();
        opened.add(gamefleet);
        FakeEcsTask task = new FakeEcsTask(TASK_ARN, "10.0.3.7").start();
        opened.add(task);
        Map<String, String> environment = new HashMap<>(Map.of("PATH", System.getenv("PATH"),
                TaskMetadata.ENDPOINT_VARIABLE, task.metadataUri()));
        AgentConfig config = AgentConfigReader.parse("agent.json", config(gamefleet).toString());
        Agent agent = Agent.start(config, CREDENTIALS, context(environment));
        opened.add(agent::close);
        String instanceId = ContainerTasks.instanceId(TASK_ARN);
        assertThat(log).anyMatch(l -> l.contains("ECS task " + TASK_ARN + " in us-east-1b: instance " + instanceId
                + ", address 10.0.3.7"));

        // The game server container: ECS starts it with GSDK_CONFIG_FILE set, once the agent's container is up.
        Path gsdkFile = work.resolve("gamefleet/gsdk.json");
        ChildJvm.await("the GSDK config file on the task volume", () -> Files.exists(gsdkFile));
        assertThat(JSON.readTree(gsdkFile.toFile()).path("heartbeatEndpoint").asText()).isEqualTo("127.0.0.1:" + agent.gsdkPort());
        Path endFile = work.resolve("end-match");
        Path console = work.resolve("game-server.log");
        gameServer = FakeEcsTask.startGameServerContainer(gsdkFile, console, "match-until", endFile.toString());

        ChildJvm.await("registered at StandingBy", () -> gamefleet.registered.size() == 1);
        String id = gamefleet.registered.keySet().iterator().next();
        JsonNode registration = gamefleet.requests.stream().filter(r -> r.has("ConnectionInfo")).findFirst().orElseThrow();
        assertThat(registration.path("InstanceId").asText()).as("the task is the instance").isEqualTo(instanceId);
        assertThat(registration.path("ConnectionInfo").asText()).as("the task's private IPv4").isEqualTo("10.0.3.7:7777");

        ChildJvm.await("push channel open", gamefleet::pushOpen);
        Instant now = Instant.now();
        gamefleet.push(JSON.createObjectNode().put("action", "claimed").put("gameServerGroupName", "g").put("gameServerId", id)
                .put("gameServerData", "{\"map\":\"dust2\"}").put("claimedAt", now.toString())
                .put("claimExpiresAt", now.plusSeconds(60).toString()).toString());
        ChildJvm.await("UTILIZED", () -> "UTILIZED".equals(gamefleet.registered.get(id)));
        ChildJvm.await("Active in the game server container", () -> ChildJvm.read(console).contains("ACTIVE cookie={\"map\":\"dust2\"}"));

        Files.writeString(endFile, ""); // its match ends: Terminated, and its container exits
        assertThat(gameServer.waitFor(30, TimeUnit.SECONDS)).isTrue();
        agent.gameServerOver().get(30, TimeUnit.SECONDS);
        assertThat(gamefleet.calls).contains("DeregisterGameServer " + id);
        assertThat(gamefleet.registered).isEmpty();
        assertThat(work.resolve("agent/archive/g").resolve(instanceId).resolve(id).resolve(LogArchive.REPORT)).exists();
        assertThat(gamefleet.calls.stream().filter(c -> c.startsWith("RegisterGameServer"))).as("no game server after it").hasSize(1);
    }

    @Test
    void withoutTheTaskMetadataEndpointTheSidecarDoesNotStartAndSaysWhyUnlessItsConfigurationNamesIt() throws Exception {
        FakeGamefleet gamefleet = new FakeGamefleet().start();
        opened.add(gamefleet);
        AgentConfig config = AgentConfigReader.parse("agent.json", config(gamefleet).toString());
        assertThatThrownBy(() -> Agent.start(config, CREDENTIALS, context(Map.of()))).isInstanceOf(Agent.StartFailure.class)
                .hasMessageContaining("ECS_CONTAINER_METADATA_URI_V4 is not set: mode \"sidecar\" reads its instance id and "
                        + "address from its ECS task's metadata");

        // Several sidecars in one JVM (the local profile's) name their task's endpoints in their configurations instead.
        FakeEcsTask task = new FakeEcsTask(TASK_ARN, "10.0.3.8").start();
        opened.add(task);
        ObjectNode named = config(gamefleet).put("taskMetadataEndpoint", task.metadataUri());
        Agent agent = Agent.start(AgentConfigReader.parse("agent.json", named.toString()), CREDENTIALS, context(Map.of()));
        opened.add(agent::close);
        assertThat(log).anyMatch(l -> l.contains("agent of " + ContainerTasks.instanceId(TASK_ARN) + " in g"));
    }

    @Test
    void asItsTasksProcessItSignsWithTheTaskRoleAndExitsWithZeroOnceItsGameServerIsOver() throws Exception {
        FakeGamefleet gamefleet = new FakeGamefleet().start();
        opened.add(gamefleet);
        FakeEcsTask task = new FakeEcsTask(TASK_ARN, "10.0.3.7").start();
        opened.add(task);
        // The image's one file, as on an instance: the task's environment makes it a sidecar's.
        Path config = Files.writeString(work.resolve("agent.json"), config(gamefleet).put("mode", "gsdk").toString());
        Path agentLog = work.resolve("agent.log");
        ProcessBuilder b = new ProcessBuilder(ChildJvm.java(), "-cp", System.getProperty("java.class.path"),
                AgentMain.class.getName(), config.toString()).redirectErrorStream(true).redirectOutput(agentLog.toFile());
        b.environment().clear();
        b.environment().putAll(Map.of("PATH", System.getenv("PATH"), "GAMEFLEET_AGENT_MODE", "sidecar",
                TaskMetadata.ENDPOINT_VARIABLE, task.metadataUri(), "AWS_CONTAINER_CREDENTIALS_FULL_URI", task.credentialsUri(), "AWS_EC2_METADATA_DISABLED", "true",
                "AWS_SHARED_CREDENTIALS_FILE", work.resolve("none").toString(), "AWS_CONFIG_FILE", work.resolve("none").toString()));
        Process agent = b.start();
        try {
            Path gsdkFile = work.resolve("gamefleet/gsdk.json");
            ChildJvm.await("the GSDK config file", () -> Files.exists(gsdkFile));
            Path endFile = work.resolve("end-match");
            gameServer = FakeEcsTask.startGameServerContainer(gsdkFile, work.resolve("game-server.log"), "match-until",
                    endFile.toString());

            ChildJvm.await("registered", () -> gamefleet.registered.size() == 1);
            String id = gamefleet.registered.keySet().iterator().next();
            ChildJvm.await("push channel open", gamefleet::pushOpen);
            assertThat(gamefleet.pushConnects.get(0).get("authorization")).as("the task role's keys, from the container provider")
                    .startsWith("AWS4-HMAC-SHA256 Credential=" + FakeEcsTask.TASK_ROLE_KEY + "/");
            Instant now = Instant.now();
            gamefleet.push(JSON.createObjectNode().put("action", "claimed").put("gameServerGroupName", "g").put("gameServerId", id)
                    .put("claimedAt", now.toString()).put("claimExpiresAt", now.plusSeconds(60).toString()).toString());
            ChildJvm.await("UTILIZED", () -> "UTILIZED".equals(gamefleet.registered.get(id)));
            Files.writeString(endFile, "");
            assertThat(agent.waitFor(60, TimeUnit.SECONDS)).as("the sidecar exits: " + ChildJvm.read(agentLog)).isTrue();
            assertThat(agent.exitValue()).as("so that ECS replaces its task, not as a failure").isZero();
            assertThat(ChildJvm.read(agentLog)).contains("the task's game server is over; the sidecar exits");
            assertThat(gamefleet.registered).isEmpty();
        } finally {
            agent.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
