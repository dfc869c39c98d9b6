package io.gamefleet.local;

import static io.gamefleet.local.AgentsOnProfile.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.ContainerTasks;
import io.gamefleet.catalog.Routes;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.Compatibility;
import software.amazon.awssdk.services.ecs.model.ContainerDefinition;
import software.amazon.awssdk.services.ecs.model.NetworkMode;
import software.amazon.awssdk.services.ecs.model.PortMapping;
import software.amazon.awssdk.services.ecs.model.ProtectedTask;

/**
 * A container group on {@code local/run}, end to end with real processes: a task definition
 * registered in the simulated ECS through the SDK's ECS client, {@code POST /container-groups},
 * the activation creating its ECS service, each task's game server container (the agent's scripted
 * GSDK server) under the agent sidecar (the agent jar in its own JVM): registered from StandingBy
 * on its task's FleetIQ instance id, claimed, Active, its task protected while it plays and released
 * after, its end stopping the task and a new task replacing it; a Fargate Spot interruption of a
 * task draining it as an EC2 Spot warning drains an instance.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ContainerGroupOnLocalProfileTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension().inRealTime()
            .localOnly("the simulated ECS's tasks and their agent sidecars");

    private static final String GROUP = "arena";
    private static final String MATCH_OVER = "match-over";
    private static EcsClient ecs;

    private final GamefleetClient admin = LOCAL.admin();
    private final GamefleetClient matchmaker = LOCAL.matchmaker();

    @BeforeAll
    static void aContainerGroupOfOneTask() throws Exception {
        Path script = AgentsOnProfile.scriptedGsdkServer();
        ecs = EcsClient.builder().region(Region.of(LOCAL.profile().region()))
                .endpointOverride(LOCAL.profile().endpoint()).httpClientBuilder(UrlConnectionHttpClient.builder())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        LocalProfileExtension.ADMIN.accessKeyId(), LocalProfileExtension.ADMIN.secretAccessKey())))
                .build();
        // The studio's definition: one essential game server container (run here by its command; its
        // match ends when a file appears in its folder), and its port.
        ecs.registerTaskDefinition(r -> r.family("arena-game").networkMode(NetworkMode.AWSVPC)
                .requiresCompatibilities(Compatibility.FARGATE).cpu("2048").memory("4096")
                .containerDefinitions(ContainerDefinition.builder().name("game").image("studio/arena:1").essential(true)
                        .command("python3", "-u", script.toString(), MATCH_OVER)
                        .portMappings(PortMapping.builder().containerPort(7777).build()).build()));
        LOCAL.admin().call("POST", Routes.CREATE_CONTAINER_GROUP.path(), GamefleetClient.obj()
                .put("GameServerGroupName", GROUP).put("MinSize", 1).put("MaxSize", 1)
                .put("TaskDefinition", "arena-game")).ok();
        JsonNode group = simulated("the group ACTIVE or ERROR", () -> {
            JsonNode g = LOCAL.admin().describeGroup(GROUP).ok().group();
            return Set.of("ACTIVE", "ERROR").contains(g.path("Status").asText()) ? g : null;
        });
        assertThat(group.path("Status").asText()).as("%s", group).isEqualTo("ACTIVE");
    }

    /**
     * Waits for {@code found}, the simulated ECS advanced before each look as the profile's scheduler
     * advances it every second (this class's profile runs no schedule).
     */
    private static <T> T simulated(String what, java.util.function.Supplier<T> found) {
        return await(what, () -> {
            LOCAL.profile().ecs().tick();
            return found.get();
        });
    }

    @AfterAll
    static void closeClient() {
        if (ecs != null) {
            ecs.close();
        }
    }

    @Test
    @Order(1)
    void aTasksGameServerIsClaimedPlaysProtectedEndsAndIsReplacedByANewTask() throws Exception {
        JsonNode server = simulated("a server AVAILABLE", () -> available().orElse(null));
        String id = server.get("GameServerId").asText();
        String instance = server.get("InstanceId").asText();
        String taskArn = taskOf(instance);
        assertThat(instance).matches("^i-[0-9a-zA-Z]{17}$").isEqualTo(ContainerTasks.instanceId(taskArn));
        assertThat(instanceIds()).as("DescribeGameServerInstances answers the task as an instance").containsExactly(instance);
        assertThat(protectedNow(taskArn)).as("nothing to protect while StandingBy").isFalse();

        JsonNode claimed = matchmaker.claim(GROUP, GamefleetClient.obj().put("GameServerData", "map=dust")).ok().server();
        assertThat(claimed.path("GameServerId").asText()).as("the only server, claimed as a matchmaker claims: none named").isEqualTo(id);
        simulated("UTILIZED", () -> "UTILIZED".equals(admin.describeServer(GROUP, id).ok().server()
                .path("UtilizationStatus").asText()) ? id : null);
        simulated("its task protected while its server is claimed and plays", () -> protectedNow(taskArn) ? taskArn : null);
        simulated("the game server container told Active with the claim's data", () -> output(taskArn)
                .contains("ACTIVE cookie=map=dust") ? taskArn : null);

        Files.writeString(taskFolder(taskArn).resolve("game").resolve(MATCH_OVER), "");
        simulated("the ended server deregistered", () -> admin.describeServer(GROUP, id).status() == 404 ? id : null);
        JsonNode next = simulated("a new task's server in its place", () -> available()
                .filter(s -> !s.get("InstanceId").asText().equals(instance)).orElse(null));
        assertThat(next.get("GameServerId").asText()).isNotEqualTo(id);
        assertThat(instanceIds()).as("the ended task is gone").doesNotContain(instance);
    }

    @Test
    @Order(2)
    void aFargateSpotInterruptionDrainsTheTaskAsASpotWarningDrainsAnInstance() throws Exception {
        JsonNode server = simulated("a server AVAILABLE", () -> available().orElse(null));
        String id = server.get("GameServerId").asText();
        String instance = server.get("InstanceId").asText();
        HttpResponse<String> interrupted = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                LOCAL.profile().endpoint() + "/_local/instances/" + instance + "/interrupt"))
                .header("X-Gamefleet-Local-Token", LOCAL.profile().localToken())
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(interrupted.statusCode()).as(interrupted.body()).isEqualTo(200);
        simulated("the interrupted task's StandingBy server deregistered", () -> admin.describeServer(GROUP, id).status() == 404
                ? id : null);
        simulated("a new task's server in its place", () -> available()
                .filter(s -> !s.get("InstanceId").asText().equals(instance)).orElse(null));
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

    /** The ARN of the running task whose FleetIQ instance id this is. */
    private static String taskOf(String instance) {
        return ecs.listTasks(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER)).taskArns().stream()
                .filter(arn -> ContainerTasks.instanceId(arn).equals(instance)).findFirst().orElseThrow();
    }

    private static boolean protectedNow(String taskArn) {
        return ecs.getTaskProtection(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).tasks(taskArn)).protectedTasks()
                .stream().anyMatch(ProtectedTask::protectionEnabled);
    }

    /** What the task's game server container printed so far. */
    private static String output(String taskArn) {
        try {
            Path log = taskFolder(taskArn).resolve("game.log");
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (java.io.IOException e) {
            return "";
        }
    }

    private static Path taskFolder(String taskArn) {
        return LOCAL.profile().logsDirectory().resolve("tasks").resolve(taskArn.substring(taskArn.lastIndexOf('/') + 1));
    }
}
