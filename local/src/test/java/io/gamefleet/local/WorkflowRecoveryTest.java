package io.gamefleet.local;

import static io.gamefleet.local.FaultProfile.SIDECAR;
import static io.gamefleet.local.GamefleetClient.WORKFLOW;
import static io.gamefleet.local.GamefleetClient.groupBody;
import static io.gamefleet.local.GamefleetClient.obj;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.adapters.dynamodb.DynamoGroupRepository;
import io.gamefleet.adapters.dynamodb.TableNames;
import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.catalog.TableDefinition;
import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.fakes.MutableClock;
import io.gamefleet.testing.TestBackend;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * No group stays in a status a workflow owns once its workflow is lost: the sidecar killed in
 * the middle of workflows, the profile started again on its --data-dir with groups in every such
 * status, a sidecar that does not answer when a group is created. And FORCE_DELETE removes a
 * group whatever its workflow is doing.
 */
class WorkflowRecoveryTest {
    /** Instances come into service only once the test moves the clock this far. */
    private static final Duration LAUNCH = Duration.ofMinutes(1);

    @BeforeAll
    static void onTheEmbeddedBackendOnly() {
        org.junit.jupiter.api.Assumptions.assumeTrue(TestBackend.selected().embedded()
                && DeployedApi.selected().isEmpty(), "kills and stops the emulators the in-process profile runs");
    }

    private static String status(GamefleetClient admin, String group) {
        return admin.describeGroup(group).ok().group().get("Status").asText();
    }

    /** Waits (real time) for the activation to have launched the group's instance. */
    private static void awaitLaunched(FaultProfile p, String name) {
        Instant deadline = Instant.now().plus(WORKFLOW);
        while (p.profile.fleet().instancesOf(name).isEmpty()) {
            assertThat(Instant.now()).as("%s launched its instance", name).isBefore(deadline);
            GamefleetClient.pause(20);
        }
    }

    /** Creates the group and moves the clock past its instance's launch: ACTIVE. */
    private static void createActive(FaultProfile p, String name) {
        p.admin.createGroup(groupBody(name, 1, 2)).ok();
        awaitLaunched(p, name);
        p.clock.advance(LAUNCH);
        p.admin.awaitActive(name);
    }

    /** An ACTIVE group with one UTILIZED game server: SAFE_DELETE waits for it. */
    private static String busyGroup(FaultProfile p, String name) {
        createActive(p, name);
        p.admin.register(name, "game-1", p.admin.firstInstance(name)).ok();
        p.admin.updateServer(name, "game-1", obj().put("UtilizationStatus", "UTILIZED")).ok();
        return name;
    }

    @Test
    void workflowsLostWithTheSidecarAreStartedAgain() {
        try (FaultProfile p = FaultProfile.start(Optional.empty(), MutableClock.startingNow(), LAUNCH)) {
            busyGroup(p, "busy");
            p.admin.deleteGroup("busy", "SAFE_DELETE").ok();
            p.admin.createGroup(groupBody("slow", 1, 2)).ok();
            awaitLaunched(p, "slow");
            assertThat(status(p.admin, "busy")).isEqualTo("DELETE_SCHEDULED");

            p.signal(SIDECAR, "KILL");
            p.awaitHealth(h -> h.dependency(SIDECAR).path("restarts").asInt() == 1 && h.state(SIDECAR).equals("running"),
                    Duration.ofSeconds(20), "the sidecar started again");
            // Both workflows run again, from where they were.
            for (String group : new String[] {"busy", "slow"}) {
                assertThat(p.admin.describeGroup(group).ok().group().get("StatusReason").asText())
                        .as(group).contains("workflow had stopped").contains("started again");
            }
            p.clock.advance(LAUNCH);
            p.admin.awaitActive("slow");
            assertThat(status(p.admin, "busy")).isEqualTo("DELETE_SCHEDULED");
            p.admin.deregister("busy", "game-1").ok(); // its game ended
            p.admin.awaitGroup("busy", Set.of("DELETED"), WORKFLOW);
        }
    }

    @Test
    void aRestartOnTheDataDirFinishesEveryUnfinishedWorkflow(@TempDir Path data) {
        Map<String, GameServerGroupStatus> left = Map.of("left-new", GameServerGroupStatus.NEW,
                "left-activating", GameServerGroupStatus.ACTIVATING,
                "left-scheduled", GameServerGroupStatus.DELETE_SCHEDULED,
                "left-deleting", GameServerGroupStatus.DELETING);
        try (FaultProfile first = FaultProfile.start(Optional.of(data))) {
            for (String name : left.keySet()) {
                first.admin.createActive(groupBody(name, 1, 2));
            }
            // As a profile stopped in the middle of each workflow leaves them: the status written,
            // the execution gone with the sidecar.
            try (DynamoDbClient dynamoDb = dynamoDb(first)) {
                DynamoGroupRepository groups = groups(dynamoDb);
                left.forEach((name, status) -> {
                    GameServerGroup g = groups.find(name).orElseThrow();
                    groups.update(g.toBuilder().status(status).deleteOption(status.name().startsWith("DELET")
                            ? io.gamefleet.domain.DeleteOption.SAFE_DELETE : null).build());
                });
            }
        }
        try (FaultProfile second = FaultProfile.start(Optional.of(data))) {
            for (Map.Entry<String, GameServerGroupStatus> e : left.entrySet()) {
                String expected = e.getValue().name().startsWith("DELET") ? "DELETED" : "ACTIVE";
                JsonNode g = second.admin.awaitGroup(e.getKey(), Set.of(expected, "ERROR"), WORKFLOW);
                assertThat(g.get("Status").asText()).as("%s", g).isEqualTo(expected);
            }
            // The names of the deleted ones can be used again.
            second.admin.createActive(groupBody("left-deleting", 1, 2));
        }
    }

    @Test
    void aCreateWhileTheSidecarDoesNotAnswerEndsQuicklyAndForceDeleteRemovesAnyGroup() throws Exception {
        try (FaultProfile p = FaultProfile.start(Optional.empty(), MutableClock.startingNow(), LAUNCH)) {
            p.signal(SIDECAR, "STOP");
            CompletableFuture<GamefleetClient.Response> create = CompletableFuture.supplyAsync(
                    () -> p.admin.createGroup(groupBody("unstarted", 1, 2)));
            assertThat(p.awaitHealth(h -> h.state(SIDECAR).equals("not answering"), Duration.ofSeconds(10),
                    "the sidecar not answering").status()).isEqualTo(503);
            // Within the SDK's call timeout, not minutes.
            create.get(20, TimeUnit.SECONDS).error(500, "InternalServiceException");
            p.signal(SIDECAR, "CONT");
            JsonNode failed = p.admin.describeGroup("unstarted").ok().group();
            assertThat(failed.get("Status").asText()).isEqualTo("ERROR");
            assertThat(failed.get("StatusReason").asText()).contains("could not be started");
            p.awaitHealth(h -> h.status() == 200, Duration.ofSeconds(10), "ready");

            // A group stuck in ACTIVATING (no instance comes into service): only FORCE_DELETE takes it.
            p.admin.createGroup(groupBody("stuck", 1, 2)).ok();
            awaitLaunched(p, "stuck");
            assertThat(p.admin.deleteGroup("stuck", "SAFE_DELETE").error(409, "ConflictException").message())
                    .contains("FORCE_DELETE");
            p.admin.deleteGroup("stuck", "FORCE_DELETE").ok();
            p.admin.deleteGroup("unstarted", "FORCE_DELETE").ok();
            p.admin.awaitGroup("stuck", Set.of("DELETED"), WORKFLOW);
            p.admin.awaitGroup("unstarted", Set.of("DELETED"), WORKFLOW);
            assertThat(p.profile.fleet().hasScalingGroup("stuck")).isFalse();
            // A SAFE_DELETE that waits for a game is overtaken by FORCE_DELETE.
            busyGroup(p, "busy");
            p.admin.deleteGroup("busy", "SAFE_DELETE").ok();
            p.admin.deleteGroup("busy", "FORCE_DELETE").ok();
            p.admin.awaitGroup("busy", Set.of("DELETED"), WORKFLOW);
            // And the names can be used again.
            createActive(p, "stuck");
        }
    }

    private static DynamoDbClient dynamoDb(FaultProfile p) {
        return DynamoDbClient.builder().endpointOverride(p.child(FaultProfile.DYNOXIDE).endpoint())
                .region(Region.of(LocalAccount.REGION))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClient(UrlConnectionHttpClient.create()).build();
    }

    private static DynamoGroupRepository groups(DynamoDbClient dynamoDb) {
        Map<String, String> environment = new HashMap<>();
        for (TableDefinition t : Tables.ALL) {
            environment.put(t.environmentVariable(), t.logicalName());
        }
        return new DynamoGroupRepository(dynamoDb, DynamoDbEnhancedClient.builder().dynamoDbClient(dynamoDb).build(),
                new TableNames(environment));
    }
}
