package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/** Several instances' agents in one JVM, as the local profile runs them: each signs as its own instance. */
class AgentsInOneJvmTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path work;

    @Test
    void eachAgentSignsWithItsInstancesCredentialsAndShutdownStopsItsProcesses() throws Exception {
        ChildJvm.traversable(work);
        try (FakeGamefleet gamefleet = new FakeGamefleet().start()) {
            List<Agent> agents = new ArrayList<>();
            List<Long> pids = new ArrayList<>();
            try {
                for (String instance : List.of("i-1", "i-2")) {
                    int port = ChildJvm.freePort();
                    ObjectNode c = JSON.createObjectNode().put("gameServerGroupName", "g").put("instanceId", instance)
                            .put("region", "us-east-1").put("connectionAddress", "127.0.0.1")
                            .put("apiEndpoint", "http://127.0.0.1:" + gamefleet.port())
                            .put("pushEndpoint", "ws://127.0.0.1:" + gamefleet.port() + "/push")
                            .put("command", ChildJvm.java()).put("gsdkPort", 0)
                            .put("workDirectory", work.resolve(instance).toString())
                            .put("serversDirectory", work.resolve("servers-" + instance).toString())
                            .put("runAsUidBase", 61000 + 10 * agents.size()); // two agents on one machine: uids of their own
                    ChildJvm.args(ScriptedGsdkServer.class, "match-until", work.resolve("never").toString())
                            .forEach(c.putArray("args")::add);
                    c.putObject("ports").putObject("game").put("from", port).put("to", port);
                    c.putObject("timings").put("stopGraceSeconds", 5);
                    agents.add(Agent.start(AgentConfigReader.parse(instance, c.toString()),
                            StaticCredentialsProvider.create(AwsBasicCredentials.create("key-" + instance, "secret"))));
                }
                ChildJvm.await("both registered", () -> gamefleet.registered.size() == 2);
                ChildJvm.await("both push channels", () -> gamefleet.pushConnects.size() >= 2);
                assertThat(gamefleet.pushConnects).extracting(m -> m.get("authorization").replaceAll("/.*", "/"))
                        .contains("AWS4-HMAC-SHA256 Credential=key-i-1/", "AWS4-HMAC-SHA256 Credential=key-i-2/");
                for (String instance : List.of("i-1", "i-2")) {
                    pids.add(JSON.readTree(work.resolve(instance).resolve(StateFile.NAME).toFile())
                            .path("servers").get(0).path("pid").asLong());
                }
                assertThat(agents.get(0).gsdkPort()).isNotEqualTo(agents.get(1).gsdkPort());
            } finally {
                for (Agent agent : agents) {
                    agent.shutdown();
                }
            }
            for (long pid : pids) {
                ChildJvm.await("process " + pid + " stopped", () -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
            }
        }
    }
}
