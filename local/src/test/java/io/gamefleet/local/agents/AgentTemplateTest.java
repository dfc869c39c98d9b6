package io.gamefleet.local.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each instance's agent configuration: the template's, with what differs per instance set by the profile. */
class AgentTemplateTest {
    private static final URI API = URI.create("http://127.0.0.1:4590");

    private static ObjectNode forInstance(AgentTemplate t, List<Integer> ports) {
        return t.forInstance("arena", "i-0123456789abcdef0", ports, 30999, API, URI.create("ws://127.0.0.1:4590/push"),
                URI.create("http://127.0.0.1:4590/_local/imds/i-0123456789abcdef0"), Path.of("/w"), Path.of("/s"), Path.of("/a"),
                61004, new AgentTemplate.Stage("eu-west-1", java.time.Duration.ofSeconds(45), 16));
    }

    @Test
    void aGameServerCommandRunsThroughTheShellWithOneGamePortPerProcess() {
        ObjectNode c = forInstance(AgentTemplate.gameServer("./server -port {port:game}", 3), List.of(30000));
        assertThat(c.path("command").asText()).isEqualTo("sh");
        assertThat(c.path("args").toString()).isEqualTo("[\"-c\",\"./server -port {port:game}\"]");
        assertThat(c.path("processes").asInt()).isEqualTo(3);
        assertThat(c.path("ports").toString()).isEqualTo("{\"game\":{\"from\":30000,\"to\":30002}}");
        assertThat(c.path("connectionPort").asText()).isEqualTo("game");
        assertThat(c.path("gameServerGroupName").asText()).isEqualTo("arena");
        assertThat(c.path("instanceId").asText()).isEqualTo("i-0123456789abcdef0");
        assertThat(c.path("region").asText()).as("the stage's region, which the agent signs for").isEqualTo("eu-west-1");
        assertThat(c.path("gsdkPort").asInt()).isZero();
        assertThat(c.path("qosPort").asInt()).as("its QoS beacon on a loopback port of its own").isEqualTo(30999);
        assertThat(c.path("connectionAddress").asText()).isEqualTo("127.0.0.1");
        assertThat(c.path("apiEndpoint").asText()).isEqualTo(API.toString());
        assertThat(c.path("pushEndpoint").asText()).isEqualTo("ws://127.0.0.1:4590/push");
        assertThat(c.path("metadataEndpoint").asText()).endsWith("/_local/imds/i-0123456789abcdef0");
        assertThat(c.path("workDirectory").asText()).isEqualTo("/w");
        assertThat(c.path("serversDirectory").asText()).isEqualTo("/s");
        assertThat(c.path("archiveDirectory").asText()).isEqualTo("/a");
        assertThat(c.path("runAsUidBase").asInt()).as("each instance's processes uids of their own").isEqualTo(61004);
        assertThat(c.path("timings").path("claimTtlSeconds").asInt()).as("the profile's claim TTL").isEqualTo(45);
        assertThat(c.path("maxGameServersPerInstance").asInt()).as("the stage's cap, which the agent holds processes to").isEqualTo(16);
    }

    @Test
    void aWholeConfigKeepsItsOwnKeysAndGetsThisInstancesPortsAndEndpoints(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("agent.json"), "{\"gameServerGroupName\": \"elsewhere\", \"command\": \"/opt/game\","
                + " \"mode\": \"wrapper\", \"wrapper\": {\"readyPort\": \"game\"}, \"processes\": 2, \"gsdkPort\": 56001,"
                + " \"ports\": {\"game\": {\"from\": 7777, \"to\": 7778}, \"query\": {\"from\": 27015, \"to\": 27016}},"
                + " \"timings\": {\"startTimeoutSeconds\": 5}}");
        ObjectNode c = forInstance(AgentTemplate.read(file), List.of(31000, 31002));
        assertThat(c.path("command").asText()).isEqualTo("/opt/game");
        assertThat(c.path("mode").asText()).isEqualTo("wrapper");
        assertThat(c.path("timings").path("startTimeoutSeconds").asInt()).isEqualTo(5);
        assertThat(c.path("timings").path("claimTtlSeconds").asInt()).isEqualTo(45);
        assertThat(c.path("gameServerGroupName").asText()).as("every group's instances run it").isEqualTo("arena");
        assertThat(c.path("gsdkPort").asInt()).as("several agents on one machine").isZero();
        assertThat(c.path("ports").toString())
                .isEqualTo("{\"game\":{\"from\":31000,\"to\":31001},\"query\":{\"from\":31002,\"to\":31003}}");
    }

    @Test
    void aCommandRunsAsItIsAndOneRestrictedToAGroupRunsOnThatGroupsInstancesOnly() {
        AgentTemplate t = AgentTemplate.command(List.of("/usr/bin/java", "-cp", "a b.jar", "Main", "{port:game}"), 2);
        ObjectNode c = forInstance(t, List.of(30000));
        assertThat(c.path("command").asText()).isEqualTo("/usr/bin/java");
        assertThat(c.path("args").toString()).isEqualTo("[\"-cp\",\"a b.jar\",\"Main\",\"{port:game}\"]");
        assertThat(c.path("ports").toString()).isEqualTo("{\"game\":{\"from\":30000,\"to\":30001}}");
        assertThat(t.runsOn("arena")).isTrue();
        assertThat(t.onlyGroup()).isEmpty();
        AgentTemplate demo = t.onlyOn("demo");
        assertThat(demo.runsOn("demo")).isTrue();
        assertThat(demo.runsOn("arena")).isFalse();
        assertThat(demo.processes()).isEqualTo(2);
    }
}
