package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.catalog.Routes;
import io.gamefleet.local.agents.AgentTemplate;
import io.gamefleet.local.agents.InstanceAgents;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code local/run --game-server}, end to end with real processes: the agent jar in its own JVM on
 * the group's simulated instance, running the agent's scripted GSDK game server (python3, PascalCase
 * keys as the C++ and C# GSDKs send them), registered with the instance's own principal, claimed
 * through the API, told Active over the push channel and the GSDK heartbeat, then ended and replaced;
 * an operator's shutdown; a Spot warning that reaches the process as maintenance and drains the
 * instance (its StandingBy server deregistered, told Terminate, archived; no new one); the instance's
 * end and its replacement's agent.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AgentsOnLocalProfileTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension().inRealTime()
            .localOnly("the simulated instances' agents");

    private static final String GROUP = "agents";

    @TempDir
    static Path matches;
    private static String instance;
    private static InstanceAgents agents;

    private final GamefleetClient admin = LOCAL.admin();
    private final GamefleetClient matchmaker = LOCAL.matchmaker();
    private final AgentsOnProfile servers = new AgentsOnProfile(LOCAL, GROUP);

    @BeforeAll
    static void aGroupOfOneInstanceWithItsAgent() throws IOException, InterruptedException {
        Path script = AgentsOnProfile.scriptedGsdkServer();
        // Run as root, the processes are uids of their own: they look for their end files by their names here.
        java.nio.file.Files.setPosixFilePermissions(matches, java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
        LOCAL.admin().createActive(GamefleetClient.groupBody(GROUP, 1, 1));
        instance = LOCAL.profile().fleet().instancesOf(GROUP).get(0).instanceId();
        agents = LOCAL.profile().runAgents(AgentTemplate.gameServer(
                "exec python3 -u " + script + " " + matches.resolve("over-{instanceId}-{gameServerId}"), 1));
    }

    /**
     * {@code GET /qos-servers} lists the instance's beacon, on its loopback port of its own, once its
     * agent is connected; a ping (two 0xFF bytes, then the client's own) to it is echoed back with
     * the first two bytes zeroed.
     */
    @Test
    @Order(0)
    void theInstancesQosBeaconIsListedAndAnswersAPing() throws Exception {
        JsonNode listed = await("the instance's beacon listed", () -> {
            JsonNode servers = matchmaker.call("GET", Routes.LIST_QOS_SERVERS.path()).ok().body()
                    .path("QosServers");
            return servers.size() == 1 ? servers.get(0) : null;
        });
        assertThat(listed.path("Region").asText()).isEqualTo(LocalAccount.REGION);
        assertThat(listed.path("ServerUrl").asText()).isEqualTo("127.0.0.1");
        int port = listed.path("Port").asInt();
        try (java.net.DatagramSocket client = new java.net.DatagramSocket(0, java.net.InetAddress.getByName("127.0.0.1"))) {
            client.setSoTimeout(30_000); // a missing reply fails the test instead of hanging it
            byte[] ping = {(byte) 0xFF, (byte) 0xFF, 7};
            client.send(new java.net.DatagramPacket(ping, ping.length, java.net.InetAddress.getByName("127.0.0.1"), port));
            java.net.DatagramPacket reply = new java.net.DatagramPacket(new byte[16], 16);
            client.receive(reply);
            assertThat(java.util.Arrays.copyOf(reply.getData(), reply.getLength())).containsExactly(0, 0, 7);
        }
    }

    @Test
    @Order(1)
    void aGameServerGoesFromStandingByToActiveByAClaimToItsEndAndIsReplaced() throws Exception {
        JsonNode server = await("a server registered AVAILABLE on " + instance, () -> available().orElse(null));
        String id = server.get("GameServerId").asText();
        assertThat(server.get("InstanceId").asText()).isEqualTo(instance);
        assertThat(server.get("ConnectionInfo").asText()).startsWith("127.0.0.1:");
        await("the agent's push connection", () -> pushConnection().orElse(null));

        Instant claimed = Instant.now();
        matchmaker.claim(GROUP, GamefleetClient.obj().put("GameServerId", id).put("GameServerData", "map=dust")).ok();
        await("ACTIVE with the claim's data in the process's output", () -> console(id).contains("ACTIVE cookie=map=dust") ? id : null);
        System.out.println("claim to Active in the process: " + Duration.between(claimed, Instant.now()).toMillis() + " ms");
        await("UTILIZED", () -> "UTILIZED".equals(admin.describeServer(GROUP, id).ok().server()
                .path("UtilizationStatus").asText()) ? id : null);
        asAnInstanceItsProcessIsItsOwnUidWithNoneOfTheProfilesEnvironment(id);

        Files.writeString(matches.resolve("over-" + instance + "-" + id), "");
        await("deregistered", () -> admin.describeServer(GROUP, id).status() == 404 ? id : null);
        JsonNode next = await("a new server in its place", () -> available().filter(s -> !s.get("GameServerId").asText()
                .equals(id)).orElse(null));
        assertThat(next.get("InstanceId").asText()).isEqualTo(instance);
        Path archived = agents.archive().resolve(GROUP).resolve(instance).resolve(id);
        assertThat(Files.readString(archived.resolve("PF_ConsoleLogs.txt"))).contains("MATCH OVER").doesNotContain("REFUSED");
    }

    /** A session's claim: the GSDK gets the session's id, cookie and initial players; the session ends with its match. */
    @Test
    @Order(2)
    void aSessionHandsTheGameItsIdCookieAndInitialPlayers() throws Exception {
        String id = await("a server AVAILABLE", () -> available().orElse(null)).get("GameServerId").asText();
        await("the agent's push connection", () -> pushConnection().orElse(null));
        String session = java.util.UUID.randomUUID().toString();
        com.fasterxml.jackson.databind.node.ObjectNode request = GamefleetClient.obj().put("SessionId", session)
                .put("SessionCookie", "map=session");
        request.putArray("InitialPlayers").add("p1").add("p2");
        String sessions = GamefleetClient.groupPath(GROUP) + "/sessions";
        assertThat(matchmaker.call("POST", sessions, request).ok().body().path("Session").path("GameServerId").asText())
                .isEqualTo(id);
        await("the session in the process's output", () -> console(id).contains("ACTIVE cookie=map=session")
                && console(id).contains("SESSION id=" + session + " players=p1,p2") ? id : null);
        await("ACTIVE", () -> "ACTIVE".equals(matchmaker.call("GET", sessions + "/" + session).ok().body()
                .path("Session").path("State").asText()) ? id : null);

        Files.writeString(matches.resolve("over-" + instance + "-" + id), "");
        await("the session ENDED with its match", () -> "ENDED".equals(matchmaker.call("GET", sessions + "/" + session)
                .ok().body().path("Session").path("State").asText()) ? id : null);
    }

    @Test
    @Order(3)
    void anOperatorsShutdownTerminatesTheProcessAndANewOneStarts() throws Exception {
        String id = await("a server AVAILABLE", () -> available().orElse(null)).get("GameServerId").asText();
        await("the agent's push connection", () -> pushConnection().orElse(null));
        admin.deregister(GROUP, id).ok();
        await("a new server in its place", () -> available().filter(s -> !s.get("GameServerId").asText().equals(id))
                .orElse(null));
        Path archived = agents.archive().resolve(GROUP).resolve(instance).resolve(id).resolve("PF_ConsoleLogs.txt");
        await("its log archived", () -> Files.exists(archived) ? archived : null);
        assertThat(Files.readString(archived)).as("told Terminate through its heartbeat").contains("TERMINATE");
    }

    @Test
    @Order(4)
    void aSpotWarningReachesTheProcessAsMaintenanceAndDrainsTheInstance() throws Exception {
        String id = await("a server AVAILABLE", () -> available().orElse(null)).get("GameServerId").asText();
        HttpResponse<String> interrupted = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                LOCAL.profile().endpoint() + "/_local/instances/" + instance + "/interrupt"))
                .header("X-Gamefleet-Local-Token", LOCAL.profile().localToken())
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(interrupted.statusCode()).isEqualTo(200);
        await("MAINTENANCE in the process's output", () -> console(id).contains("MAINTENANCE ") ? id : null);
        await("the StandingBy server deregistered at the warning", () -> admin.describeServer(GROUP, id).status() == 404 ? id : null);
        Path archived = agents.archive().resolve(GROUP).resolve(instance).resolve(id).resolve("PF_ConsoleLogs.txt");
        await("its log archived", () -> Files.exists(archived) ? archived : null);
        assertThat(Files.readString(archived)).as("told Terminate through its heartbeat").contains("MAINTENANCE", "TERMINATE");
        assertThat(available()).as("no new game server on an instance being interrupted").isEmpty();
    }

    @Test
    @Order(5)
    void anInstanceThatEndsStopsItsAgentsProcessesAndItsReplacementsAgentRegisters() {
        String ended = instance; // interrupted above, and drained
        String scalingGroup = LOCAL.profile().services().groups().describe(GROUP).autoScalingGroupName();
        LOCAL.profile().fleet().terminateInstance(scalingGroup, ended, false);
        instance = await("a new instance", () -> LOCAL.profile().fleet().instancesOf(GROUP).stream()
                .map(i -> i.instanceId()).filter(i -> !i.equals(ended)).findFirst().orElse(null));
        await("the ended instance's processes gone", () -> gameServerProcesses().stream()
                .noneMatch(p -> p.info().commandLine().orElse("").contains(ended)) ? ended : null);
        await("a server AVAILABLE on the new instance", () -> available().orElse(null));
        assertThat(agents.instances()).containsExactly(instance);
    }

    @Test
    @Order(6)
    void noGameServerProcessOutlivesTheAgents() {
        assertThat(gameServerProcesses()).isNotEmpty();
        agents.close(); // what the profile's close does; its own end closes the same pipe, however it ends
        assertThat(gameServerProcesses()).isEmpty();
    }

    /** Run as root (as on an instance), the process is a uid of its own, in its own folder, given nothing of the profile's. */
    private static void asAnInstanceItsProcessIsItsOwnUidWithNoneOfTheProfilesEnvironment(String id) throws IOException {
        if (!InstanceAgents.runsAsRoot()) {
            return; // as a user, the agents cannot switch users (and the profile says so)
        }
        ProcessHandle process = gameServerProcesses().stream().filter(p -> p.info().commandLine().orElse("").contains(id))
                .findFirst().orElseThrow();
        String status = Files.readString(Path.of("/proc/" + process.pid() + "/status"));
        assertThat(status).containsPattern("Uid:\\s+61000\\s+61000\\s+61000\\s+61000").contains("CapEff:\t0000000000000000");
        List<String> environment = List.of(Files.readString(Path.of("/proc/" + process.pid() + "/environ")).split("\0"));
        assertThat(environment).noneMatch(v -> v.startsWith("AWS_")).noneMatch(v -> v.startsWith("SESSION_HOST_ID="))
                .contains("HOME=" + agents.serversFolder().resolve(instance).resolve(id));
    }

    /** This class's game server processes: their command lines name its temporary folder. */
    private static List<ProcessHandle> gameServerProcesses() {
        return AgentsOnProfile.processes(matches.toString());
    }

    private Optional<JsonNode> available() {
        return servers.available(instance);
    }

    private Optional<String> pushConnection() {
        return servers.pushConnection(instance);
    }

    private String console(String gameServerId) {
        return servers.console(instance, gameServerId);
    }

    private static <T> T await(String what, Supplier<T> found) {
        return AgentsOnProfile.await(what, found);
    }
}
