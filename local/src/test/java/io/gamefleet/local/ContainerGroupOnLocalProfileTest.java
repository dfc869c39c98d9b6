package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.ContainerTasks;
import io.gamefleet.catalog.Triggers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.ecs.model.ContainerDefinition;
import software.amazon.awssdk.services.ecs.model.PortMapping;
import software.amazon.awssdk.services.ecs.model.ProtectedTask;

/**
 * A container group on {@code local/run}, end to end with real processes: a task definition
 * registered in the simulated ECS through the SDK's ECS client, {@code POST /container-groups},
 * the activation creating its ECS service, each task's game server container (the agent's scripted
 * GSDK server) under the agent sidecar (the agent jar in its own JVM): registered from StandingBy
 * on its task's FleetIQ instance id, claimed, Active, its task protected by the balancer's run (the
 * RunBalancer schedule's function, as the scheduler runs it) while it plays, its end stopping the
 * task and a new task, unprotected, replacing it; a Fargate Spot interruption of a task draining it
 * as an EC2 Spot warning drains an instance.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ContainerGroupOnLocalProfileTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension().inRealTime()
            .localOnly("the simulated ECS's tasks and their agent sidecars");

    private static final String GROUP = "arena";
    private static final String MATCH_OVER = "match-over";
    private static ContainerGroupOnProfile group;

    private final GamefleetClient admin = LOCAL.admin();
    private final GamefleetClient matchmaker = LOCAL.matchmaker();

    /**
     * The studio's definition: one essential game server container (run here by its command; its
     * match ends when a file appears in its folder), and its port.
     */
    @BeforeAll
    static void aContainerGroupOfOneTask() throws Exception {
        Path script = AgentsOnProfile.scriptedGsdkServer();
        group = new ContainerGroupOnProfile(LOCAL, "arena-game", ContainerDefinition.builder().name("game")
                .image("studio/arena:1").essential(true).command("python3", "-u", script.toString(), MATCH_OVER)
                .portMappings(PortMapping.builder().containerPort(7777).build()).build(), GROUP, 1);
    }

    @AfterAll
    static void closeClient() {
        if (group != null) {
            group.ecs.close();
        }
    }

    @Test
    @Order(1)
    void aTasksGameServerIsClaimedPlaysProtectedEndsAndIsReplacedByANewTask() throws Exception {
        JsonNode server = group.simulated("a server AVAILABLE", () -> available().orElse(null));
        String id = server.get("GameServerId").asText();
        String instance = server.get("InstanceId").asText();
        String taskArn = group.taskOf(instance);
        assertThat(instance).matches("^i-[0-9a-zA-Z]{17}$").isEqualTo(ContainerTasks.instanceId(taskArn));
        assertThat(instanceIds()).as("DescribeGameServerInstances answers the task as an instance").containsExactly(instance);
        balance();
        assertThat(protectedNow(taskArn)).as("nothing to protect while StandingBy").isFalse();

        JsonNode claimed = matchmaker.claim(GROUP, GamefleetClient.obj().put("GameServerData", "map=dust")).ok().server();
        assertThat(claimed.path("GameServerId").asText()).as("the only server, claimed as a matchmaker claims: none named").isEqualTo(id);
        group.simulated("UTILIZED", () -> "UTILIZED".equals(admin.describeServer(GROUP, id).ok().server()
                .path("UtilizationStatus").asText()) ? id : null);
        balance();
        assertThat(protectedNow(taskArn)).as("its task protected by the balancer while its server is claimed").isTrue();
        group.simulated("the game server container told Active with the claim's data", () -> output(taskArn)
                .contains("ACTIVE cookie=map=dust") ? taskArn : null);
        balance();
        assertThat(protectedNow(taskArn)).as("and while it plays").isTrue();

        Files.writeString(group.taskFolder(taskArn).resolve("game").resolve(MATCH_OVER), "");
        group.simulated("the ended server deregistered", () -> admin.describeServer(GROUP, id).status() == 404 ? id : null);
        JsonNode next = group.simulated("a new task's server in its place", () -> available()
                .filter(s -> !s.get("InstanceId").asText().equals(instance)).orElse(null));
        assertThat(next.get("GameServerId").asText()).isNotEqualTo(id);
        // The service starts the new task as the old one begins to stop; the old one goes once it has stopped.
        group.simulated("the ended task gone from the instances", () -> instanceIds().contains(instance) ? null : instance);
        balance();
        assertThat(protectedNow(group.taskOf(next.get("InstanceId").asText()))).as("its replacement holds no game: unprotected")
                .isFalse();
    }

    @Test
    @Order(2)
    void aFargateSpotInterruptionDrainsTheTaskAsASpotWarningDrainsAnInstance() throws Exception {
        JsonNode server = group.simulated("a server AVAILABLE", () -> available().orElse(null));
        String id = server.get("GameServerId").asText();
        String instance = server.get("InstanceId").asText();
        HttpResponse<String> interrupted = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                LOCAL.profile().endpoint() + "/_local/instances/" + instance + "/interrupt"))
                .header("X-Gamefleet-Local-Token", LOCAL.profile().localToken())
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(interrupted.statusCode()).as(interrupted.body()).isEqualTo(200);
        group.simulated("the interrupted task's StandingBy server deregistered", () -> admin.describeServer(GROUP, id).status() == 404
                ? id : null);
        group.simulated("a new task's server in its place", () -> available()
                .filter(s -> !s.get("InstanceId").asText().equals(instance)).orElse(null));
    }

    /** A balancer run, as the scheduler runs the RunBalancer schedule's function each period. */
    private static void balance() {
        LOCAL.profile().runSchedule(Triggers.BALANCER.name());
    }

    private Optional<JsonNode> available() {
        return StreamSupport.stream(admin.listServers(GROUP, "").ok().body().path("GameServers").spliterator(), false)
                .filter(s -> "AVAILABLE".equals(s.path("UtilizationStatus").asText())
                        && !"CLAIMED".equals(s.path("ClaimStatus").asText()))
                .findFirst();
    }

    private List<String> instanceIds() {
        return StreamSupport.stream(admin.describeInstances(GROUP, "").ok().body().path("GameServerInstances")
                .spliterator(), false).map(i -> i.path("InstanceId").asText()).toList();
    }

    private static boolean protectedNow(String taskArn) {
        return group.ecs.getTaskProtection(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).tasks(taskArn)).protectedTasks()
                .stream().anyMatch(ProtectedTask::protectionEnabled);
    }

    /** What the task's game server container printed so far. */
    private static String output(String taskArn) {
        try {
            Path log = group.taskFolder(taskArn).resolve("game.log");
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (java.io.IOException e) {
            return "";
        }
    }
}
