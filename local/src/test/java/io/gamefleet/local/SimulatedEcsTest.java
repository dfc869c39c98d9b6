package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.ContainerTasks;
import io.gamefleet.local.edge.Principal;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.AccessDeniedException;
import software.amazon.awssdk.services.ecs.model.CapacityProviderStrategyItem;
import software.amazon.awssdk.services.ecs.model.ClientException;
import software.amazon.awssdk.services.ecs.model.ClusterNotFoundException;
import software.amazon.awssdk.services.ecs.model.ContainerDefinition;
import software.amazon.awssdk.services.ecs.model.DesiredStatus;
import software.amazon.awssdk.services.ecs.model.EcsException;
import software.amazon.awssdk.services.ecs.model.InvalidParameterException;
import software.amazon.awssdk.services.ecs.model.KeyValuePair;
import software.amazon.awssdk.services.ecs.model.NetworkMode;
import software.amazon.awssdk.services.ecs.model.ProtectedTask;
import software.amazon.awssdk.services.ecs.model.Service;
import software.amazon.awssdk.services.ecs.model.ServiceField;
import software.amazon.awssdk.services.ecs.model.Tag;
import software.amazon.awssdk.services.ecs.model.Task;
import software.amazon.awssdk.services.ecs.model.TaskDefinition;

/**
 * The simulated ECS on the local profile, driven through the AWS SDK's own ECS client over the edge's
 * socket: tasks are real processes (their containers' commands), moved through their lives by the
 * profile's clock and {@code SimulatedEcs.tick}, as the scheduler does every second.
 */
class SimulatedEcsTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension()
            .localOnly("the simulated ECS, its tasks' processes and a clock the test moves");

    private static final Duration PROCESS_WAIT = Duration.ofSeconds(20);
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final List<EcsClient> CLIENTS = new ArrayList<>();

    private final EcsClient ecs = client(LocalProfileExtension.ADMIN);

    private static EcsClient client(Principal principal) {
        EcsClient client = EcsClient.builder().region(Region.of(LOCAL.profile().region()))
                .endpointOverride(LOCAL.profile().endpoint()).httpClientBuilder(UrlConnectionHttpClient.builder())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(principal.accessKeyId(),
                        principal.secretAccessKey())))
                .build();
        CLIENTS.add(client);
        return client;
    }

    @AfterAll
    static void closeClients() {
        CLIENTS.forEach(EcsClient::close);
    }

    private static void tick() {
        LOCAL.profile().ecs().tick();
    }

    /** A Fargate-compatible definition whose one container runs {@code script} with sh. */
    private TaskDefinition register(String family, String script) {
        return ecs.registerTaskDefinition(r -> r.family(family).networkMode(NetworkMode.AWSVPC).cpu("1024").memory("2048")
                .requiresCompatibilitiesWithStrings("FARGATE")
                .containerDefinitions(ContainerDefinition.builder().name("game").image("example/game:1").essential(true)
                        .command("sh", "-c", script).environment(KeyValuePair.builder().name("MODE").value("test").build())
                        .build())).taskDefinition();
    }

    private Service createService(String name, String definitionArn, int desired) {
        return ecs.createService(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).serviceName(name).taskDefinition(definitionArn)
                .desiredCount(desired).tags(Tag.builder().key("gamefleet:game-server-group").value(name).build())
                .capacityProviderStrategy(
                        CapacityProviderStrategyItem.builder().capacityProvider("FARGATE").base(1).weight(0).build(),
                        CapacityProviderStrategyItem.builder().capacityProvider("FARGATE_SPOT").weight(1).build()))
                .service();
    }

    private List<String> running(String service) {
        return ecs.listTasks(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).serviceName(service)
                .desiredStatus(DesiredStatus.RUNNING)).taskArns();
    }

    private Map<String, Task> describe(List<String> arns) {
        return ecs.describeTasks(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).tasks(arns)).tasks().stream()
                .collect(Collectors.toMap(Task::taskArn, t -> t));
    }

    private Task describe(String arn) {
        return describe(List.of(arn)).get(arn);
    }

    private Service service(String name) {
        return ecs.describeServices(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).services(name)
                .include(ServiceField.TAGS)).services().get(0);
    }

    /** A file a task's container writes in its own folder: waited for in real time, as its process runs in it. */
    private static String written(String taskArn, String file) throws Exception {
        Path path = LOCAL.profile().logsDirectory().resolve("tasks").resolve(taskArn.substring(taskArn.lastIndexOf('/') + 1))
                .resolve("game").resolve(file);
        Instant deadline = Instant.now().plus(PROCESS_WAIT);
        while (Instant.now().isBefore(deadline)) {
            if (Files.exists(path) && Files.size(path) > 0) {
                String text = Files.readString(path);
                if (text.endsWith("\n")) {
                    return text;
                }
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("the task's process did not write " + path + " within " + PROCESS_WAIT);
    }

    private static String variable(String environment, String name) {
        return environment.lines().filter(l -> l.startsWith(name + "=")).map(l -> l.substring(name.length() + 1))
                .findFirst().orElseThrow(() -> new AssertionError(name + " not in the task's environment: " + environment));
    }

    private static HttpResponse<String> http(String method, URI uri, String body) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(uri).method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aServiceRunsItsTasksAndScaleInPassesOverProtectedOnesUntilTheirProtectionExpires() throws Exception {
        TaskDefinition definition = register("arena", "env > env.txt; exec sleep 600");
        assertThat(definition.taskDefinitionArn()).endsWith(":task-definition/arena:1");
        assertThat(definition.compatibilitiesAsStrings()).contains("EC2", "FARGATE");
        assertThat(ecs.describeTaskDefinition(r -> r.taskDefinition("arena")).taskDefinition().containerDefinitions().get(0)
                .command()).containsExactly("sh", "-c", "env > env.txt; exec sleep 600");

        Service created = createService("arena", definition.taskDefinitionArn(), 2);
        assertThat(created.serviceArn()).endsWith(":service/" + LocalProfile.CONTAINER_CLUSTER + "/arena");
        assertThat(service("arena").pendingCount()).isEqualTo(2);
        assertThat(service("arena").tags()).extracting(Tag::key).containsExactly("gamefleet:game-server-group");

        tick();
        List<String> tasks = running("arena");
        assertThat(tasks).hasSize(2);
        Map<String, Task> described = describe(tasks);
        assertThat(described.values()).allSatisfy(t -> {
            assertThat(t.lastStatus()).isEqualTo("RUNNING");
            assertThat(t.group()).isEqualTo("service:arena");
            assertThat(t.attachments().get(0).details()).anySatisfy(d -> {
                assertThat(d.name()).isEqualTo("privateIPv4Address");
                assertThat(d.value()).isEqualTo("127.0.0.1");
            });
        });
        // The base first, then the weights.
        assertThat(described.values()).extracting(Task::capacityProviderName).containsExactlyInAnyOrder("FARGATE", "FARGATE_SPOT");
        assertThat(service("arena").runningCount()).isEqualTo(2);

        String kept = tasks.get(0);
        String other = tasks.get(1);
        String environment = written(kept, "env.txt");
        assertThat(variable(environment, "MODE")).isEqualTo("test");
        assertThat(variable(environment, "AWS_SECRET_ACCESS_KEY")).as("as ECS gives every container the task role")
                .isNotBlank();
        URI metadata = URI.create(variable(environment, "ECS_CONTAINER_METADATA_URI_V4"));
        JsonNode task = GamefleetClient.JSON.readTree(http("GET", URI.create(metadata + "/task"), null).body());
        assertThat(task.get("TaskARN").asText()).isEqualTo(kept);
        assertThat(task.get("Cluster").asText()).endsWith(":cluster/" + LocalProfile.CONTAINER_CLUSTER);
        assertThat(task.get("AvailabilityZone").asText()).startsWith(LOCAL.profile().region());
        assertThat(task.at("/Containers/0/Networks/0/IPv4Addresses/0").asText()).isEqualTo("127.0.0.1");
        String withoutSecret = metadata.toString().replaceFirst("/[^/]+/metadata/", "/wrong/metadata/");
        assertThat(http("GET", URI.create(withoutSecret + "/task"), null).statusCode()).isEqualTo(404);

        // Protected as the balancer protects a task that holds a game.
        ecs.updateTaskProtection(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).tasks(kept).protectionEnabled(true)
                .expiresInMinutes(60));
        ProtectedTask reported = ecs.getTaskProtection(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).tasks(kept))
                .protectedTasks().get(0);
        assertThat(reported.protectionEnabled()).isTrue();
        assertThat(reported.expirationDate()).isAfter(LOCAL.clock().instant().plus(Duration.ofMinutes(59)));

        // Scale-in to nothing stops the unprotected task only.
        ecs.updateService(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).service("arena").desiredCount(0));
        assertThat(running("arena")).containsExactly(kept);
        assertThat(describe(other).desiredStatus()).isEqualTo("STOPPED");
        assertThat(describe(other).stopCodeAsString()).isEqualTo("ServiceSchedulerInitiated");
        LOCAL.clock().advance(Duration.ofSeconds(31)); // its stop timeout: SIGKILL if SIGTERM did not end it
        tick();
        assertThat(describe(other).lastStatus()).isEqualTo("STOPPED");
        assertThat(describe(kept).lastStatus()).isEqualTo("RUNNING");

        // Once its protection has expired, the service's scale-in reaches it.
        LOCAL.clock().advance(Duration.ofMinutes(60));
        tick();
        assertThat(running("arena")).isEmpty();
        assertThat(ecs.getTaskProtection(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).tasks(kept)).protectedTasks().get(0)
                .protectionEnabled()).isFalse();

        ecs.deleteService(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).service("arena").force(true));
        assertThat(service("arena").status()).isEqualTo("DRAINING");
        LOCAL.clock().advance(Duration.ofSeconds(31));
        tick();
        assertThat(describe(kept).lastStatus()).isEqualTo("STOPPED");
        assertThat(service("arena").status()).isEqualTo("INACTIVE");
        assertThat(ecs.deregisterTaskDefinition(r -> r.taskDefinition(definition.taskDefinitionArn())).taskDefinition()
                .statusAsString()).isEqualTo("INACTIVE");
    }

    @Test
    void anInterruptIsAFargateSpotInterruptionThatEventBridgeIsToldOf() throws Exception {
        TaskDefinition definition = register("spotty",
                "trap 'echo terminated > term.txt; exit 0' TERM; echo started > up.txt; while :; do sleep 1; done");
        createService("spotty", definition.taskDefinitionArn(), 1);
        tick();
        String interrupted = running("spotty").get(0);
        written(interrupted, "up.txt");
        List<JsonNode> earlier = timeline(0);
        long before = earlier.isEmpty() ? 0 : earlier.get(earlier.size() - 1).get("Sequence").asLong();

        HttpResponse<String> answer = http("POST", ContainerTasks.instanceId(interrupted), null, true);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        JsonNode body = GamefleetClient.JSON.readTree(answer.body());
        assertThat(body.get("TaskArn").asText()).isEqualTo(interrupted);
        assertThat(Instant.parse(body.get("KillTime").asText())).isEqualTo(LOCAL.clock().instant().plus(Duration.ofMinutes(2)));

        Task stopping = describe(interrupted);
        assertThat(stopping.desiredStatus()).isEqualTo("STOPPED");
        assertThat(stopping.stopCodeAsString()).isEqualTo("SpotInterruption");
        // Its replacement starts as the service notices, while the interrupted task has its two minutes.
        assertThat(running("spotty")).isEmpty();
        tick();
        assertThat(running("spotty")).hasSize(1).doesNotContain(interrupted);
        assertThat(timeline(before)).anySatisfy(e -> {
            assertThat(e.get("Name").asText()).isEqualTo("ECS Task State Change");
            JsonNode detail = e.get("Detail");
            assertThat(detail.get("taskArn").asText()).isEqualTo(interrupted);
            assertThat(detail.get("clusterArn").asText()).endsWith(":cluster/" + LocalProfile.CONTAINER_CLUSTER);
            assertThat(detail.get("group").asText()).isEqualTo("service:spotty");
            assertThat(detail.get("lastStatus").asText()).isEqualTo("RUNNING");
            assertThat(detail.get("desiredStatus").asText()).isEqualTo("STOPPED");
            assertThat(detail.get("stopCode").asText()).isEqualTo("SpotInterruption");
        });
        assertThat(written(interrupted, "term.txt")).isEqualTo("terminated\n"); // SIGTERM reached its process group

        LOCAL.clock().advance(Duration.ofMinutes(2));
        tick();
        assertThat(describe(interrupted).lastStatus()).isEqualTo("STOPPED");
        assertThat(describe(interrupted).stopCodeAsString()).isEqualTo("SpotInterruption");
        assertThat(http("POST", ContainerTasks.instanceId(interrupted), null, true).statusCode()).isEqualTo(404);
        ecs.deleteService(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).service("spotty").force(true));
    }

    @Test
    void everyContainerGetsTheTasksKeysWhichTheEdgeAdmitsUntilTheTaskIsKilled() throws Exception {
        String script = "env > env.txt; exec sleep 600";
        TaskDefinition definition = ecs.registerTaskDefinition(r -> r.family("sidecar").networkMode(NetworkMode.AWSVPC)
                .containerDefinitions(
                        ContainerDefinition.builder().name("gamefleet-agent").image("gamefleet/agent:1")
                                .command("sh", "-c", "mkdir -p ../game && " + script.replace("env.txt", "../game/agent-env.txt"))
                                .build(),
                        ContainerDefinition.builder().name("game").image("example/game:1").command("sh", "-c", script).build()))
                .taskDefinition();
        createService("sidecar", definition.taskDefinitionArn(), 1);
        tick();
        String task = running("sidecar").get(0);
        String agent = written(task, "agent-env.txt");
        String game = written(task, "env.txt");
        assertThat(variable(game, "AWS_ACCESS_KEY_ID")).as("the game server's container too, as ECS gives it the task role")
                .isEqualTo(variable(agent, "AWS_ACCESS_KEY_ID"));
        assertThat(variable(game, "AWS_SECRET_ACCESS_KEY")).isEqualTo(variable(agent, "AWS_SECRET_ACCESS_KEY"));
        EcsClient asTask = client(new Principal(variable(agent, "AWS_ACCESS_KEY_ID"), variable(agent, "AWS_SECRET_ACCESS_KEY"),
                io.gamefleet.catalog.Role.GAME_SERVER, java.util.Optional.empty()));
        // Known to the edge, as a game server: refused by role, not by signature.
        assertThatThrownBy(() -> asTask.describeTasks(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).tasks(task)))
                .isInstanceOf(AccessDeniedException.class)
                .hasMessageContaining("/" + ContainerTasks.instanceId(task) + " is not authorized");

        ecs.stopTask(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).task(task));
        LOCAL.clock().advance(Duration.ofSeconds(30));
        tick();
        assertThat(describe(task).lastStatus()).isEqualTo("STOPPED");
        assertThatThrownBy(() -> asTask.describeTasks(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).tasks(task)))
                .isInstanceOfSatisfying(EcsException.class, e -> assertThat(e.statusCode()).isEqualTo(403));
        ecs.deleteService(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).service("sidecar").force(true));
    }

    @Test
    void refusalsAreEcsErrorsAndChangeNothing() {
        TaskDefinition definition = register("refused", "exec sleep 600");
        assertThatThrownBy(() -> ecs.describeTaskDefinition(r -> r.taskDefinition("nothing-of-that-name")))
                .isInstanceOf(ClientException.class).hasMessageContaining("Unable to describe task definition.");
        assertThatThrownBy(() -> ecs.listTasks(r -> r.cluster("nowhere"))).isInstanceOf(ClusterNotFoundException.class);
        createService("refused", definition.taskDefinitionArn(), 1);
        assertThatThrownBy(() -> ecs.deleteService(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).service("refused")))
                .isInstanceOf(InvalidParameterException.class);
        assertThat(service("refused").status()).isEqualTo("ACTIVE");
        tick();
        String task = running("refused").get(0);
        assertThatThrownBy(() -> ecs.updateTaskProtection(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).tasks(task)
                .protectionEnabled(true).expiresInMinutes(2881))).isInstanceOf(InvalidParameterException.class);
        assertThatThrownBy(() -> ecs.getTaskProtection(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER)
                .tasks(java.util.Collections.nCopies(11, task)))).isInstanceOf(InvalidParameterException.class);
        assertThat(ecs.getTaskProtection(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).tasks(task)).protectedTasks().get(0)
                .protectionEnabled()).isFalse();
        // A game server's keys call no ECS action.
        EcsClient gameServer = client(LocalProfileExtension.BOUND_GAME_SERVER);
        assertThatThrownBy(() -> gameServer.stopTask(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).task(task)))
                .isInstanceOf(AccessDeniedException.class);
        assertThat(describe(task).desiredStatus()).isEqualTo("RUNNING");
        ecs.deleteService(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).service("refused").force(true));
    }

    @Test
    void aNewStrategyTakesTheTasksStartedFromThenOn() {
        TaskDefinition definition = register("rebalanced", "exec sleep 600");
        ecs.createService(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).serviceName("rebalanced")
                .taskDefinition(definition.taskDefinitionArn()).desiredCount(1)
                .capacityProviderStrategy(CapacityProviderStrategyItem.builder().capacityProvider("FARGATE_SPOT").weight(1).build())
                .networkConfiguration(n -> n.awsvpcConfiguration(a -> a.subnets("subnet-local").assignPublicIp("ENABLED")))
                .propagateTags("SERVICE").enableECSManagedTags(true));
        tick();
        String first = running("rebalanced").get(0);
        assertThat(service("rebalanced").networkConfiguration().awsvpcConfiguration().subnets()).containsExactly("subnet-local");
        assertThat(service("rebalanced").enableECSManagedTags()).isTrue();

        ecs.updateService(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).service("rebalanced").forceNewDeployment(true)
                .capacityProviderStrategy(CapacityProviderStrategyItem.builder().capacityProvider("FARGATE").weight(1).build()));
        assertThat(service("rebalanced").capacityProviderStrategy()).extracting(CapacityProviderStrategyItem::capacityProvider)
                .containsExactly("FARGATE");
        assertThat(describe(first).capacityProviderName()).as("a running task stays").isEqualTo("FARGATE_SPOT");
        ecs.updateService(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).service("rebalanced").desiredCount(2));
        tick();
        assertThat(describe(running("rebalanced")).values()).extracting(Task::capacityProviderName)
                .containsExactlyInAnyOrder("FARGATE_SPOT", "FARGATE");
        ecs.deleteService(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).service("rebalanced").force(true));
    }

    /** Signed requests the SDK would not send: an operation ECS does not have here, a body that is not JSON. */
    @Test
    void theWireRefusesInEcssErrorShape() throws Exception {
        EcsClient otherOperation = rewritten(r -> r.toBuilder().putHeader("X-Amz-Target",
                "AmazonEC2ContainerServiceV20141113.PutAccountSetting").build(), null);
        assertThatThrownBy(() -> otherOperation.listTasks(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER)))
                .isInstanceOfSatisfying(EcsException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("UnknownOperationException");
                });
        String cut = "{\"cluster\":";
        EcsClient notJson = rewritten(r -> r.toBuilder().putHeader("Content-Length", Integer.toString(cut.length())).build(), cut);
        assertThatThrownBy(() -> notJson.listTasks(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER)))
                .isInstanceOfSatisfying(EcsException.class, e -> assertThat(e.awsErrorDetails().errorCode())
                        .isEqualTo("SerializationException"));

        HttpResponse<String> unsigned = HTTP.send(HttpRequest.newBuilder(LOCAL.profile().endpoint())
                .header("X-Amz-Target", "AmazonEC2ContainerServiceV20141113.ListTasks")
                .header("Content-Type", "application/x-amz-json-1.1")
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(unsigned.statusCode()).isEqualTo(403);
        JsonNode error = GamefleetClient.JSON.readTree(unsigned.body());
        assertThat(error.get("__type").asText()).isEqualTo("InvalidSignatureException");
        assertThat(error.get("message").asText()).isNotEmpty();
    }

    /** An admin's client whose requests are changed before they are signed (and, given {@code body}, sent with it). */
    private static EcsClient rewritten(java.util.function.UnaryOperator<software.amazon.awssdk.http.SdkHttpRequest> request,
            String body) {
        EcsClient client = EcsClient.builder().region(Region.of(LOCAL.profile().region()))
                .endpointOverride(LOCAL.profile().endpoint()).httpClientBuilder(UrlConnectionHttpClient.builder())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        LocalProfileExtension.ADMIN.accessKeyId(), LocalProfileExtension.ADMIN.secretAccessKey())))
                .overrideConfiguration(o -> o.addExecutionInterceptor(new software.amazon.awssdk.core.interceptor.ExecutionInterceptor() {
                    @Override
                    public software.amazon.awssdk.http.SdkHttpRequest modifyHttpRequest(
                            software.amazon.awssdk.core.interceptor.Context.ModifyHttpRequest context,
                            software.amazon.awssdk.core.interceptor.ExecutionAttributes attributes) {
                        return request.apply(context.httpRequest());
                    }

                    @Override
                    public java.util.Optional<software.amazon.awssdk.core.sync.RequestBody> modifyHttpContent(
                            software.amazon.awssdk.core.interceptor.Context.ModifyHttpRequest context,
                            software.amazon.awssdk.core.interceptor.ExecutionAttributes attributes) {
                        return body == null ? context.requestBody()
                                : java.util.Optional.of(software.amazon.awssdk.core.sync.RequestBody.fromString(body));
                    }
                }))
                .build();
        CLIENTS.add(client);
        return client;
    }

    /** {@code POST /_local/instances/<id>/interrupt}, with this run's token. */
    private static HttpResponse<String> http(String method, String instanceId, String body, boolean withToken)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(LOCAL.profile().endpoint().resolve("/_local/instances/"
                + instanceId + "/interrupt")).method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        if (withToken) {
            request.header("X-Gamefleet-Local-Token", LOCAL.profile().localToken());
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The timeline's entries numbered above {@code after}: what the local EventBridge delivered. */
    private static List<JsonNode> timeline(long after) throws Exception {
        JsonNode entries = GamefleetClient.JSON.readTree(http("GET", LOCAL.profile().endpoint()
                .resolve("/_local/timeline?after=" + after), null).body()).get("Entries");
        List<JsonNode> out = new ArrayList<>();
        entries.forEach(out::add);
        return out;
    }
}
