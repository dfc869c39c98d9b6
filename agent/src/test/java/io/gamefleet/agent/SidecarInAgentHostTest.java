package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sidecar among the agents of one JVM ({@link AgentHostMain}, as the local profile runs its agents):
 * its task's endpoints named in its file, its keys from its {@code metadataEndpoint}; once its game
 * server is over, the host stops it and says so, and the host's other work goes on.
 */
class SidecarInAgentHostTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TASK_ARN = "arn:aws:ecs:us-east-1:111122223333:task/gamefleet/9f3c2b1a0e1e84d0c9f5d0bd4a5c2b1f";

    @TempDir Path work;
    private final List<Process> processes = new ArrayList<>();
    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (Process p : processes) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        for (AutoCloseable c : opened) {
            c.close();
        }
    }

    @Test
    void aSidecarWhoseGameServerIsOverIsStoppedByTheHost() throws Exception {
        FakeGamefleet gamefleet = new FakeGamefleet().start();
        opened.add(gamefleet);
        gamefleet.metadata.put("/latest/meta-data/iam/security-credentials/", "gamefleet-task");
        gamefleet.metadata.put("/latest/meta-data/iam/security-credentials/gamefleet-task", JSON.createObjectNode()
                .put("Code", "Success").put("Type", "AWS-HMAC").put("AccessKeyId", "ASIATASK").put("SecretAccessKey", "task-secret")
                .put("Token", "task-token").put("Expiration", "2099-01-01T00:00:00Z").toString());
        FakeEcsTask task = new FakeEcsTask(TASK_ARN, "10.0.3.9").start();
        opened.add(task);
        ObjectNode c = JSON.createObjectNode().put("mode", "sidecar").put("gameServerGroupName", "g").put("region", "us-east-1")
                .put("apiEndpoint", "http://127.0.0.1:" + gamefleet.port())
                .put("metadataEndpoint", "http://127.0.0.1:" + gamefleet.port())
                .put("taskMetadataEndpoint", task.metadataUri())
                .put("gsdkPort", 0).put("qosPort", 0)
                .put("gsdkConfigFile", work.resolve("gamefleet/gsdk.json").toString())
                .put("workDirectory", work.resolve("agent").toString());
        c.putObject("ports").putObject("game").put("from", 7777).put("to", 7777);
        c.putObject("timings").put("heartbeatTimeoutSeconds", 1).put("terminateNoticeSeconds", 1);
        Path config = Files.writeString(work.resolve("agent.json"), c.toString());

        Path hostLog = work.resolve("host.log");
        ProcessBuilder b = new ProcessBuilder(ChildJvm.java(), "-cp", System.getProperty("java.class.path"),
                AgentHostMain.class.getName()).redirectErrorStream(true).redirectOutput(hostLog.toFile());
        b.environment().put("AWS_EC2_METADATA_DISABLED", "true");
        Process host = b.start();
        processes.add(host);
        String instanceId = io.gamefleet.catalog.ContainerTasks.instanceId(TASK_ARN);
        OutputStream commands = host.getOutputStream();
        commands.write((JSON.createObjectNode().put("start", instanceId).put("config", config.toString()) + "\n")
                .getBytes(StandardCharsets.UTF_8));
        commands.flush();

        Path gsdkFile = work.resolve("gamefleet/gsdk.json");
        ChildJvm.await("the GSDK config file", () -> Files.exists(gsdkFile));
        Path endFile = work.resolve("crash-now");
        processes.add(FakeEcsTask.startGameServerContainer(gsdkFile, work.resolve("game-server.log"), "crash-standing-by-when",
                endFile.toString()));

        ChildJvm.await("registered, signed with the keys of its metadataEndpoint", () -> gamefleet.registered.size() == 1);
        String id = gamefleet.registered.keySet().iterator().next();
        Files.writeString(endFile, ""); // its container dies while StandingBy: no heartbeat from then on
        ChildJvm.await("the host says the sidecar is over", () -> ChildJvm.read(hostLog)
                .contains("agent host: the sidecar of " + instanceId + " is over (its game server ended): stopping it"));
        assertThat(gamefleet.calls).contains("DeregisterGameServer " + id);
        assertThat(ChildJvm.read(hostLog)).contains(id + ": stopping: no heartbeat for 1.0 s");

        commands.close(); // the profile's end: the host stops what is left and exits
        assertThat(host.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(host.exitValue()).isZero();
    }
}
