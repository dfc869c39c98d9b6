package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.local.agents.AgentTemplate;
import io.gamefleet.local.agents.InstanceAgents;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27's attacker, end to end: {@code local/run --game-server CMD --servers-per-instance 2} run
 * as root, where CMD is a compromised game server ({@code hostile_gsdk_server.py} of the agent's
 * tests). Each of the instance's two processes looks at what it was given and tries what code
 * running inside a game server would: the agent's and the profile's secrets in its environment, its
 * files and {@code /proc}; its sibling's folder, config and session; the instance's credentials
 * through the metadata endpoint. It gets none of them, and the sibling plays on. Then, as if the
 * instance's own keys had leaked all the same, they cannot pass the stage's cap or point
 * ConnectionInfo elsewhere. Needs root (the agents give each process a uid of its own) and python3.
 */
class CompromisedGameServerTest {
    private static final int CAP = 2;

    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension().inRealTime().withMaxGameServersPerInstance(CAP)
            .localOnly("the simulated instances' agents, as root");

    private static final String GROUP = "hostile";

    @TempDir
    static Path targets;
    private static String instance;
    private static InstanceAgents agents;

    private final AgentsOnProfile servers = new AgentsOnProfile(LOCAL, GROUP);

    @BeforeAll
    static void anInstanceOfTwoCompromisedGameServers() throws Exception {
        Assumptions.assumeTrue(InstanceAgents.runsAsRoot(), "the agents give each process a uid of its own only as root");
        Assumptions.assumeTrue(new ProcessBuilder("python3", "--version").start().waitFor() == 0, "python3 runs the hostile server");
        Files.setPosixFilePermissions(targets, PosixFilePermissions.fromString("rwx--x--x"));
        Path script = Path.of(System.getProperty("gamefleet.agent.test-resources"), "hostile_gsdk_server.py");
        LOCAL.admin().createActive(GamefleetClient.groupBody(GROUP, 1, 1));
        instance = LOCAL.profile().fleet().instancesOf(GROUP).get(0).instanceId();
        agents = LOCAL.profile().runAgents(AgentTemplate.gameServer(
                "exec python3 -u " + script + " " + targets.resolve("targets-{gameServerId}.json"), CAP));
    }

    @Test
    void aCompromisedGameServerOwnsNothingButItself() throws Exception {
        List<String> ids = await("both servers registered", () -> {
            List<String> registered = servers.registered(instance);
            return registered.size() == CAP && registered.stream().allMatch(id -> given(id) != null) ? registered : null;
        });
        Map<String, String> sessions = new java.util.HashMap<>();
        for (String id : ids) {
            sessions.put(id, GamefleetClient.JSON.readTree(serverFolder(id).resolve("config/gsdkConfig.json").toFile())
                    .path("sessionHostId").asText());
        }
        List<String> secrets = secrets();
        for (String id : ids) {
            JsonNode env = given(id).path("env");
            for (Iterator<Map.Entry<String, JsonNode>> e = env.fields(); e.hasNext(); ) {
                Map.Entry<String, JsonNode> variable = e.next();
                assertThat(variable.getKey()).as("no AWS or profile variable").doesNotStartWith("AWS_")
                        .isNotIn("GAMEFLEET_LOCAL_TOKEN", "SESSION_HOST_ID");
                assertThat(secrets).as(variable.getKey() + " holds none of the profile's secrets")
                        .noneMatch(secret -> variable.getValue().asText().contains(secret));
            }
            assertThat(given(id).path("status").path("CapEff").asText()).isEqualTo("0000000000000000");
        }

        String attacker = ids.get(0);
        String sibling = ids.get(1);
        Path work = agents.instancesFolder().resolve(instance);
        List<String> unreadable = List.of(work.toString(), work.resolve("agent.json").toString(),
                work.resolve("agent-state.json").toString(), serverFolder(sibling).toString(),
                serverFolder(sibling).resolve("config/gsdkConfig.json").toString(),
                agents.serversFolder().resolve(instance).toString(),
                "/proc/" + ProcessHandle.current().pid() + "/environ", "/proc/" + agentsJvm() + "/environ",
                "/proc/" + pidOf(sibling) + "/environ");
        URI metadata = LOCAL.profile().edge().metadataEndpoint(instance);
        String withoutSecret = metadata.toString().substring(0, metadata.toString().lastIndexOf('/'));
        ObjectNode plan = GamefleetClient.obj();
        unreadable.forEach(plan.putArray("read")::add);
        plan.putArray("sessions").add(sessions.get(sibling));
        ArrayNode http = plan.putArray("http");
        http.addArray().add("PUT").add(withoutSecret + "/latest/api/token");
        http.addArray().add("GET").add(withoutSecret + "/latest/meta-data/iam/security-credentials/");
        http.addArray().add("GET").add(LOCAL.profile().endpoint() + "/_local/instances/" + instance + "/credentials");
        Files.writeString(targets.resolve("targets-" + attacker + ".json"), plan.toString());

        JsonNode tried = await("the attacker's tries", () -> line(attacker, "TRIED "));
        for (String path : unreadable) {
            assertThat(tried.path("read").path(path).asText()).as(path).isIn("PermissionError", "FileNotFoundError");
        }
        JsonNode beat = tried.path("beat").path(sessions.get(sibling));
        assertThat(beat.get(0).asInt()).as("the sibling's session, known to the attacker").isEqualTo(403);
        assertThat(beat.get(1).path("error").asText()).isEqualTo("NotYourSession");
        tried.path("http").fields().forEachRemaining(call -> assertThat(call.getValue().asInt()).as(call.getKey())
                .isBetween(400, 499));
        assertThat(servers.registered(instance)).as("the sibling plays on, registered").contains(sibling);
        assertThat(servers.console(instance, sibling)).doesNotContain("TERMINATE");

        GamefleetClient stolen = LOCAL.asInstance(instance);
        GamefleetClient.Response past = stolen.call("POST", GamefleetClient.groupPath(GROUP) + "/game-servers",
                GamefleetClient.obj().put("GameServerId", "evil-1").put("InstanceId", instance).put("ConnectionInfo", "127.0.0.1:9"));
        assertThat(past.status()).isEqualTo(400);
        assertThat(past.type()).isEqualTo("LimitExceededException");
        // Refused before the count is looked at: whether the instance is at its cap or not.
        GamefleetClient.Response elsewhere = stolen.call("POST", GamefleetClient.groupPath(GROUP) + "/game-servers",
                GamefleetClient.obj().put("GameServerId", "evil-2").put("InstanceId", instance).put("ConnectionInfo", "203.0.113.7:7777"));
        assertThat(elsewhere.status()).isEqualTo(400);
        assertThat(elsewhere.type()).isEqualTo("InvalidRequestException");
        assertThat(elsewhere.message()).as("the instance's own addresses").contains("127.0.0.1");
        assertThat(servers.registered(instance)).doesNotContain("evil-1", "evil-2");
    }

    /** What the profile holds that a game server must not: the local token and the instance's keys. */
    private static List<String> secrets() {
        JsonNode keys = LOCAL.instanceCredentials(instance);
        return List.of(LOCAL.profile().localToken(), keys.path("AccessKeyId").asText(), keys.path("SecretAccessKey").asText(),
                keys.path("Token").asText());
    }

    private Path serverFolder(String id) {
        return agents.serversFolder().resolve(instance).resolve(id);
    }

    private JsonNode given(String id) {
        return line(id, "GIVEN ");
    }

    /** The JSON after {@code prefix} on a line of the process's console output, once it printed one. */
    private JsonNode line(String id, String prefix) {
        for (String l : servers.console(instance, id).split("\n")) {
            if (l.startsWith(prefix)) {
                try {
                    return GamefleetClient.JSON.readTree(l.substring(prefix.length()));
                } catch (IOException e) {
                    return null; // printed in part so far
                }
            }
        }
        return null;
    }

    private static long pidOf(String id) {
        return AgentsOnProfile.processes(targets.toString()).stream()
                .filter(p -> p.info().commandLine().orElse("").contains("targets-" + id)).findFirst().orElseThrow().pid();
    }

    private static long agentsJvm() {
        List<Long> found = new ArrayList<>();
        ProcessHandle.current().descendants().filter(p -> p.info().commandLine().orElse("").contains("AgentHostMain"))
                .forEach(p -> found.add(p.pid()));
        assertThat(found).as("the agents' JVM").hasSize(1);
        return found.get(0);
    }

    private static <T> T await(String what, Supplier<T> found) {
        return AgentsOnProfile.await(what, found);
    }
}
