package io.gamefleet.local;

import static io.gamefleet.local.AgentsOnProfile.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.ContainerTasks;
import io.gamefleet.catalog.Routes;
import java.nio.file.Path;
import java.util.Set;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.Compatibility;
import software.amazon.awssdk.services.ecs.model.ContainerDefinition;
import software.amazon.awssdk.services.ecs.model.NetworkMode;

/**
 * What the classes with a container group on the local profile share: its task definition and
 * group, the SDK's ECS client with given keys, a task's folder and its task by instance id, and
 * waiting with the simulated ECS advanced (their profiles run no schedule).
 */
final class ContainerGroupOnProfile {
    private final LocalProfileExtension local;
    final EcsClient ecs;

    /** As the admin: registers {@code family} with its one game server container and creates {@code group} from it, ACTIVE. */
    ContainerGroupOnProfile(LocalProfileExtension local, String family, ContainerDefinition game, String group, int size) {
        this.local = local;
        this.ecs = ecsClient(local, LocalProfileExtension.ADMIN.accessKeyId(), LocalProfileExtension.ADMIN.secretAccessKey());
        ecs.registerTaskDefinition(r -> r.family(family).networkMode(NetworkMode.AWSVPC)
                .requiresCompatibilities(Compatibility.FARGATE).cpu("2048").memory("4096").containerDefinitions(game));
        local.admin().call("POST", Routes.CREATE_CONTAINER_GROUP.path(), GamefleetClient.obj()
                .put("GameServerGroupName", group).put("MinSize", size).put("MaxSize", size)
                .put("TaskDefinition", family)).ok();
        JsonNode created = simulated("the group ACTIVE or ERROR", () -> {
            JsonNode g = local.admin().describeGroup(group).ok().group();
            return Set.of("ACTIVE", "ERROR").contains(g.path("Status").asText()) ? g : null;
        });
        assertThat(created.path("Status").asText()).as("%s", created).isEqualTo("ACTIVE");
    }

    static EcsClient ecsClient(LocalProfileExtension local, String key, String secret) {
        return EcsClient.builder().region(Region.of(local.profile().region())).endpointOverride(local.profile().endpoint())
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(key, secret))).build();
    }

    /** Waits for {@code found}, the simulated ECS advanced before each look as the profile's scheduler advances it every second. */
    <T> T simulated(String what, Supplier<T> found) {
        return await(what, () -> {
            local.profile().ecs().tick();
            return found.get();
        });
    }

    /** The ARN of the running task whose FleetIQ instance id this is. */
    String taskOf(String instance) {
        return ecs.listTasks(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER)).taskArns().stream()
                .filter(arn -> ContainerTasks.instanceId(arn).equals(instance)).findFirst().orElseThrow();
    }

    /** Where the task's containers run: a folder each, their output in {@code <container>.log}. */
    Path taskFolder(String taskArn) {
        return local.profile().logsDirectory().resolve("tasks").resolve(taskArn.substring(taskArn.lastIndexOf('/') + 1));
    }
}
