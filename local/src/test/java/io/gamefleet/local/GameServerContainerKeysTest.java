package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.ContainerTasks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.AccessDeniedException;
import software.amazon.awssdk.services.ecs.model.ContainerDefinition;
import software.amazon.awssdk.services.ecs.model.PortMapping;
import software.amazon.awssdk.services.ecs.model.ProtectedTask;

/**
 * What a hostile game server container can do with the keys its own environment holds. ECS gives
 * the task role to every container of a task, so the simulated ECS gives the task's keys to its game
 * server container too. A container group of two tasks, real processes: the game server
 * container's command writes its environment to a file before it runs the scripted GSDK server, and
 * the test signs with the keys it finds there, as that container would. They are the GAME_SERVER
 * role bound to that task's instance id: its own server's update goes through; another task's
 * server is neither updated nor deregistered, no server is claimed, and ECS refuses every call
 * (protecting another task or its own, stopping another), nothing changed. (The two tasks, both on
 * 127.0.0.1, are told game ports of their own.)
 */
class GameServerContainerKeysTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension().inRealTime()
            .localOnly("the simulated ECS's tasks and their agent sidecars");

    private static final String GROUP = "keys";
    private static ContainerGroupOnProfile group;

    private final GamefleetClient admin = LOCAL.admin();

    @BeforeAll
    static void aContainerGroupOfTwoTasks() throws Exception {
        Path script = AgentsOnProfile.scriptedGsdkServer();
        group = new ContainerGroupOnProfile(LOCAL, "keys-game", ContainerDefinition.builder().name("game")
                .image("studio/keys:1").essential(true)
                .command("sh", "-c", "env > env.txt; exec python3 -u '" + script + "' match-over")
                .portMappings(PortMapping.builder().containerPort(7777).build()).build(), GROUP, 2);
    }

    @AfterAll
    static void closeClient() {
        if (group != null) {
            group.ecs.close();
        }
    }

    @Test
    void theGameServerContainersKeysReachItsOwnServerOnlyAndNoEcsAction() throws Exception {
        Map<String, JsonNode> byInstance = group.simulated("a server AVAILABLE on each task", () -> {
            Map<String, JsonNode> servers = StreamSupport.stream(admin.listServers(GROUP, "").ok().body()
                    .path("GameServers").spliterator(), false)
                    .filter(s -> "AVAILABLE".equals(s.path("UtilizationStatus").asText()))
                    .collect(Collectors.toMap(s -> s.path("InstanceId").asText(), s -> s, (a, b) -> a));
            return servers.size() == 2 ? servers : null;
        });
        assertThat(byInstance.values().stream().map(s -> s.path("ConnectionInfo").asText()).distinct())
                .as("both tasks on 127.0.0.1, each told a game port of its own").hasSize(2);
        List<String> instances = List.copyOf(byInstance.keySet());
        String own = byInstance.get(instances.get(0)).path("GameServerId").asText();
        String other = byInstance.get(instances.get(1)).path("GameServerId").asText();
        String ownTask = group.taskOf(instances.get(0));
        String otherTask = group.taskOf(instances.get(1));

        // The keys as the game server's container holds them, in its own environment.
        Map<String, String> environment = environment(group.taskFolder(ownTask).resolve("game").resolve("env.txt"));
        String key = environment.get("AWS_ACCESS_KEY_ID");
        String secret = environment.get("AWS_SECRET_ACCESS_KEY");
        assertThat(key).as("ECS gives every container the task role's credentials").isNotBlank();
        GamefleetClient hostile = new GamefleetClient(LOCAL.profile().endpoint(), LOCAL.profile().region(),
                AwsCredentialsIdentity.create(key, secret), LOCAL.signingClock(), GamefleetClient.Pace.LOCAL_PROFILE);

        // Its own server: as the agent sidecar may (the API binds the keys to the task's instance id).
        hostile.updateServer(GROUP, own, GamefleetClient.obj().put("HealthCheck", "HEALTHY")).ok();

        // Another task's server: not updated, not deregistered.
        JsonNode before = admin.describeServer(GROUP, other).ok().server();
        hostile.updateServer(GROUP, other, GamefleetClient.obj().put("UtilizationStatus", "UTILIZED")
                .put("GameServerData", "taken")).error(403, "UnauthorizedException");
        hostile.deregister(GROUP, other).error(403, "UnauthorizedException");
        JsonNode after = admin.describeServer(GROUP, other).ok().server();
        for (String member : List.of("UtilizationStatus", "ClaimStatus", "GameServerData", "InstanceId")) {
            assertThat(after.path(member)).as(member).isEqualTo(before.path(member));
        }

        // No claim: a matchmaker's call.
        hostile.claim(GROUP, GamefleetClient.obj()).error(403, "UnauthorizedException");
        for (String id : List.of(own, other)) {
            assertThat(admin.describeServer(GROUP, id).ok().server().path("ClaimStatus").asText()).as(id).isNotEqualTo("CLAIMED");
        }

        // No ECS action: another task's protection, or its stop; nor its own task's protection.
        try (EcsClient asGameServer = ContainerGroupOnProfile.ecsClient(LOCAL, key, secret)) {
            for (String task : List.of(otherTask, ownTask)) {
                assertThatThrownBy(() -> asGameServer.updateTaskProtection(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER)
                        .tasks(task).protectionEnabled(true).expiresInMinutes(2880)))
                        .isInstanceOfSatisfying(AccessDeniedException.class, e -> assertThat(e.statusCode()).isEqualTo(400))
                        .hasMessageContaining("/" + ContainerTasks.instanceId(ownTask) + " is not authorized");
            }
            assertThatThrownBy(() -> asGameServer.stopTask(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).task(otherTask)))
                    .isInstanceOf(AccessDeniedException.class);
        }
        for (String task : List.of(otherTask, ownTask)) {
            assertThat(group.ecs.getTaskProtection(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).tasks(task)).protectedTasks())
                    .as(task).noneMatch(ProtectedTask::protectionEnabled);
        }
        LOCAL.profile().ecs().tick();
        assertThat(group.ecs.describeTasks(r -> r.cluster(LocalProfile.CONTAINER_CLUSTER).tasks(otherTask)).tasks().get(0)
                .desiredStatus()).isEqualTo("RUNNING");
        assertThat(admin.describeServer(GROUP, other).ok().server().path("UtilizationStatus").asText()).isEqualTo("AVAILABLE");
    }

    /** {@code env}'s output: one {@code NAME=value} a line (the values here have no newline). */
    private static Map<String, String> environment(Path file) throws IOException {
        return Files.readAllLines(file).stream().filter(l -> l.indexOf('=') > 0)
                .collect(Collectors.toMap(l -> l.substring(0, l.indexOf('=')), l -> l.substring(l.indexOf('=') + 1), (a, b) -> b));
    }
}
