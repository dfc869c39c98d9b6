package io.gamefleet.local;

import static io.gamefleet.local.GamefleetClient.groupBody;
import static io.gamefleet.local.GamefleetClient.WORKFLOW;
import static io.gamefleet.local.GamefleetClient.obj;
import static io.gamefleet.local.GamefleetClient.query;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.sfn.model.StartExecutionRequest;

/** The activation and deletion workflows and the other group operations, through the HTTP API. */
class GroupWorkflowTest {
    private static final String REFUSAL = "launch template arena-lt does not exist";

    /** Holds the start of the activation workflow of "gated-new", so the group stays NEW. */
    private static final RequestGate NEW_GATE = new RequestGate(r -> r instanceof StartExecutionRequest s
            && s.input() != null && s.input().contains("\"gated-new\""));
    /** Holds the activation check's instance records of "gated-activating", so it stays ACTIVATING. */
    private static final RequestGate ACTIVATING_GATE = new RequestGate(r -> r instanceof PutItemRequest p
            && p.tableName().contains("Instances") && p.hasItem() && p.item().containsKey("GameServerGroupName")
            && "gated-activating".equals(p.item().get("GameServerGroupName").s()));

    /** Holds the registration's write of game server orphan-1 (a transaction with a Put of it). */
    private static final RequestGate REGISTRATION_GATE = new RequestGate(r -> r instanceof TransactWriteItemsRequest t
            && t.transactItems().stream().anyMatch(i -> i.put() != null
                    && "orphan-1".equals(i.put().item().getOrDefault("GameServerId", AttributeValue.fromS("")).s())));

    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension().withInterceptor(NEW_GATE)
            .withInterceptor(ACTIVATING_GATE).withInterceptor(REGISTRATION_GATE);

    private final GamefleetClient admin = LOCAL.admin();

    @Test
    void aLateFailureOfAnotherWorkflowLeavesTheGroupAlone() throws Exception {
        LocalProfile profile = LOCAL.profile();
        String g = "moved-on";
        admin.createActive(groupBody(g, 1, 1));
        // An activation step failing late (say, a retry after the group became ACTIVE): not this group's problem now.
        var response = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(profile.endpoint() + "/2015-03-31/functions/gamefleet-RecordFailure/invocations"))
                .header("X-Gamefleet-Local-Token", profile.localToken())
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"GameServerGroupName\":\"" + g
                        + "\",\"Workflow\":\"ACTIVATION\",\"Error\":\"States.Timeout\",\"Cause\":\"late\"}"))
                .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("X-Amz-Function-Error")).isEmpty();
        assertThat(response.body()).contains("\"Recorded\":false");
        assertThat(admin.describeGroup(g).ok().group().get("Status").asText()).isEqualTo("ACTIVE");
    }

    @Test
    void failedActivationEndsInErrorWithTheReason() {
        LOCAL.profile().fleet().refuseScalingGroups(REFUSAL);
        JsonNode failed;
        try {
            admin.createGroup(groupBody("broken", 1, 2)).ok();
            failed = admin.awaitGroup("broken", Set.of("ACTIVE", "ERROR"), WORKFLOW);
        } finally {
            LOCAL.profile().fleet().acceptScalingGroups();
        }
        assertThat(failed.get("Status").asText()).as("%s", failed).isEqualTo("ERROR");
        assertThat(failed.get("StatusReason").asText()).contains(REFUSAL);
        assertThat(failed.has("AutoScalingGroupArn")).isFalse();
        assertThat(LOCAL.profile().fleet().describeInstances("gamefleet-broken")).isEmpty();

        // An ERROR group takes no game servers and no claims, but can be deleted.
        admin.register("broken", "broken-1", "i-0123456789abcdef0").error(409, "ConflictException");
        LOCAL.matchmaker().claim("broken").error(409, "ConflictException");
        assertThat(admin.deleteGroup("broken", null).ok().group().get("Status").asText()).isEqualTo("DELETE_SCHEDULED");
        JsonNode deleted = admin.awaitGroup("broken", Set.of("DELETED", "ERROR"), WORKFLOW);
        assertThat(deleted.get("Status").asText()).as("%s", deleted).isEqualTo("DELETED");
        assertThat(deleted.has("StatusReason")).as("%s", deleted).isFalse();
    }

    @Test
    void forceDeleteDoesNotWaitForUtilizedServers() {
        String g = "forced";
        admin.createActive(groupBody(g, 1, 2));
        String instance = admin.firstInstance(g);
        admin.register(g, "forced-1", instance).ok();
        admin.register(g, "forced-2", instance).ok();
        admin.setUtilized(g, "forced-1").ok();

        assertThat(admin.deleteGroup(g, "FORCE_DELETE").ok().group().get("Status").asText())
                .isEqualTo("DELETE_SCHEDULED");
        JsonNode deleted = admin.awaitGroup(g, Set.of("DELETED", "ERROR"), WORKFLOW);
        assertThat(deleted.get("Status").asText()).as("%s", deleted).isEqualTo("DELETED");
        LOCAL.onLocalProfile(p -> assertThat(p.fleet().describeInstances("gamefleet-" + g)).isEmpty());
        admin.describeServer(g, "forced-1").error(404, "NotFoundException");
        admin.describeServer(g, "forced-2").error(404, "NotFoundException");
        // The purge freed the ids: they may be registered again elsewhere.
        String other = "forced-reuse";
        admin.createActive(groupBody(other, 1, 1));
        admin.register(other, "forced-1", admin.firstInstance(other)).ok();

        // A DELETED name can be used again, for a brand-new group.
        JsonNode again = admin.createGroup(groupBody(g, 1, 1)).ok().group();
        assertThat(again.get("Status").asText()).isEqualTo("NEW");
        admin.awaitActive(g);
        assertThat(admin.listServers(g, "").ok().body().get("GameServers").size()).isZero();
    }

    @Test
    void recreatingADeletedNameAtTheSameInstantActivates() {
        String g = "reborn";
        admin.createActive(groupBody(g, 1, 1));
        admin.deleteGroup(g, "FORCE_DELETE").ok();
        assertThat(admin.awaitGroup(g, Set.of("DELETED", "ERROR"), WORKFLOW).get("Status").asText()).isEqualTo("DELETED");
        // The profile's clock has not moved since the first creation.
        admin.createGroup(groupBody(g, 1, 1)).ok();
        assertThat(admin.awaitGroup(g, Set.of("ACTIVE", "ERROR"), Duration.ofSeconds(5)).get("Status").asText())
                .isEqualTo("ACTIVE");
    }

    @Test
    void aRegistrationRacingADeletionLeavesNoOrphan() throws Exception {
        LOCAL.requireLocalProfile("REGISTRATION_GATE, which holds a DynamoDB write of the functions");
        String g = "racy";
        admin.createActive(groupBody(g, 1, 1));
        String instance = admin.firstInstance(g);
        REGISTRATION_GATE.close();
        CompletableFuture<GamefleetClient.Response> registration;
        try {
            registration = CompletableFuture.supplyAsync(() -> admin.register(g, "orphan-1", instance));
            assertThat(REGISTRATION_GATE.awaitArrival(WORKFLOW)).as("the registration reached its write").isTrue();
            admin.deleteGroup(g, "FORCE_DELETE").ok();
            assertThat(admin.awaitGroup(g, Set.of("DELETED", "ERROR"), WORKFLOW).get("Status").asText())
                    .isEqualTo("DELETED");
        } finally {
            REGISTRATION_GATE.open();
        }
        GamefleetClient.Response late = registration.get(30, TimeUnit.SECONDS);
        assertThat(late.status()).as("%s", late).isEqualTo(409);
        admin.describeServer(g, "orphan-1").error(404, "NotFoundException");
        // Re-created, the group must not inherit the late registration.
        admin.createActive(groupBody(g, 1, 1));
        assertThat(admin.listServers(g, "").ok().body().get("GameServers").size()).isZero();
        LOCAL.matchmaker().claim(g).error(409, "OutOfCapacityException");
    }

    @Test
    void retainDeletesTheGroupButKeepsTheScalingGroup() {
        String g = "retained";
        admin.createActive(groupBody(g, 2, 2));
        admin.register(g, "retained-1", admin.firstInstance(g)).ok();
        admin.deleteGroup(g, "RETAIN").ok();
        JsonNode deleted = admin.awaitGroup(g, Set.of("DELETED", "ERROR"), WORKFLOW);
        assertThat(deleted.get("Status").asText()).as("%s", deleted).isEqualTo("DELETED");
        LOCAL.onLocalProfile(p -> assertThat(p.fleet().describeInstances("gamefleet-" + g)).hasSize(2));
        admin.describeServer(g, "retained-1").error(404, "NotFoundException");
    }

    @Test
    void onlyActiveOrErrorGroupsCanBeDeleted() throws Exception {
        LOCAL.requireLocalProfile("NEW_GATE and ACTIVATING_GATE, which hold SDK calls of the functions");
        // NEW: the activation workflow has not started yet.
        NEW_GATE.close();
        CompletableFuture<GamefleetClient.Response> creation;
        try {
            creation = CompletableFuture.supplyAsync(() -> admin.createGroup(groupBody("gated-new", 1, 1)));
            assertThat(NEW_GATE.awaitArrival(WORKFLOW)).as("the activation workflow was started").isTrue();
            assertThat(admin.describeGroup("gated-new").ok().group().get("Status").asText()).isEqualTo("NEW");
            admin.deleteGroup("gated-new", null).error(409, "ConflictException");
            admin.deleteGroup("gated-new", "RETAIN").error(409, "ConflictException");
            // (FORCE_DELETE takes a group in any status but DELETED: WorkflowRecoveryTest)
            assertThat(admin.describeGroup("gated-new").ok().group().get("Status").asText()).isEqualTo("NEW");
        } finally {
            NEW_GATE.open();
        }
        creation.get(30, TimeUnit.SECONDS).ok();
        admin.awaitActive("gated-new");

        // ACTIVATING: the workflow is recording the instances.
        ACTIVATING_GATE.close();
        try {
            admin.createGroup(groupBody("gated-activating", 1, 1)).ok();
            assertThat(ACTIVATING_GATE.awaitArrival(WORKFLOW)).as("the activation check ran").isTrue();
            assertThat(admin.describeGroup("gated-activating").ok().group().get("Status").asText())
                    .isEqualTo("ACTIVATING");
            admin.deleteGroup("gated-activating", null).error(409, "ConflictException");
            admin.deleteGroup("gated-activating", "RETAIN").error(409, "ConflictException");
            assertThat(admin.describeGroup("gated-activating").ok().group().get("Status").asText())
                    .isEqualTo("ACTIVATING");
        } finally {
            ACTIVATING_GATE.open();
        }
        admin.awaitActive("gated-activating");

        // DELETED: once is enough.
        admin.deleteGroup("gated-new", null).ok();
        assertThat(admin.awaitGroup("gated-new", Set.of("DELETED", "ERROR"), WORKFLOW).get("Status").asText())
                .isEqualTo("DELETED");
        JsonNode before = admin.describeGroup("gated-new").ok().group();
        admin.deleteGroup("gated-new", null).error(409, "ConflictException");
        admin.deleteGroup("gated-new", "FORCE_DELETE").error(409, "ConflictException");
        assertThat(admin.describeGroup("gated-new").ok().group()).isEqualTo(before);
        admin.deleteGroup("never-was", null).error(404, "NotFoundException");
    }

    @Test
    void suspendAndResumeAreReflectedAndIdempotent() {
        String g = "suspended";
        admin.createActive(groupBody(g, 1, 1));
        JsonNode s1 = admin.suspend(g, "REPLACE_INSTANCE_TYPES").ok().group();
        assertThat(texts(s1.get("SuspendedActions"))).containsExactly("REPLACE_INSTANCE_TYPES");
        JsonNode s2 = admin.suspend(g, "REPLACE_INSTANCE_TYPES").ok().group();
        assertThat(texts(s2.get("SuspendedActions"))).containsExactly("REPLACE_INSTANCE_TYPES");
        assertThat(texts(admin.describeGroup(g).ok().group().get("SuspendedActions")))
                .containsExactly("REPLACE_INSTANCE_TYPES");
        assertThat(admin.describeGroup(g).ok().group().get("Status").asText()).isEqualTo("ACTIVE");

        JsonNode r1 = admin.resume(g, "REPLACE_INSTANCE_TYPES").ok().group();
        assertThat(r1.get("SuspendedActions").size()).isZero();
        JsonNode r2 = admin.resume(g, "REPLACE_INSTANCE_TYPES").ok().group();
        assertThat(r2.get("SuspendedActions").size()).isZero();
        assertThat(admin.describeGroup(g).ok().group().get("SuspendedActions").size()).isZero();
    }

    @Test
    void updateChangesStrategyDefinitionsAndProtection() {
        String g = "updated";
        JsonNode before = admin.createActive(groupBody(g, 1, 2));
        LOCAL.passTime(Duration.ofSeconds(5));
        ObjectNode change = obj().put("BalancingStrategy", "ON_DEMAND_ONLY")
                .put("GameServerProtectionPolicy", "FULL_PROTECTION");
        change.putArray("InstanceDefinitions")
                .add(obj().put("InstanceType", "c5.xlarge").put("WeightedCapacity", "2"))
                .add(obj().put("InstanceType", "m5.xlarge"))
                .add(obj().put("InstanceType", "r5.large").put("WeightedCapacity", "1"));
        JsonNode updated = admin.updateGroup(g, change).ok().group();
        JsonNode described = admin.describeGroup(g).ok().group();
        assertThat(described).isEqualTo(updated);
        assertThat(updated.get("BalancingStrategy").asText()).isEqualTo("ON_DEMAND_ONLY");
        assertThat(updated.get("GameServerProtectionPolicy").asText()).isEqualTo("FULL_PROTECTION");
        assertThat(updated.get("InstanceDefinitions")).isEqualTo(change.get("InstanceDefinitions"));
        assertThat(updated.get("RoleArn")).isEqualTo(before.get("RoleArn"));
        assertThat(updated.get("Status").asText()).isEqualTo("ACTIVE");
        assertThat(updated.get("CreationTime")).isEqualTo(before.get("CreationTime"));
        assertThat(updated.get("LastUpdatedTime").decimalValue())
                .isGreaterThan(before.get("LastUpdatedTime").decimalValue());

        // Only what is given changes.
        JsonNode role = admin.updateGroup(g, obj().put("RoleArn", "arn:aws:iam::000000000000:role/Other")).ok().group();
        assertThat(role.get("RoleArn").asText()).isEqualTo("arn:aws:iam::000000000000:role/Other");
        assertThat(role.get("BalancingStrategy").asText()).isEqualTo("ON_DEMAND_ONLY");
        assertThat(role.get("InstanceDefinitions")).isEqualTo(change.get("InstanceDefinitions"));

        // Two different types at least, each once.
        ObjectNode twice = obj();
        twice.putArray("InstanceDefinitions").add(obj().put("InstanceType", "c5.large"))
                .add(obj().put("InstanceType", "c5.large"));
        JsonNode unchanged = admin.describeGroup(g).ok().group();
        admin.updateGroup(g, twice).error(400, "InvalidRequestException");
        assertThat(admin.describeGroup(g).ok().group()).isEqualTo(unchanged);
    }

    @Test
    void duplicateNameIsAConflictAndChangesNothing() {
        String g = "duplicate";
        JsonNode first = admin.createActive(groupBody(g, 1, 1));
        admin.createGroup(groupBody(g, 1, 1)).error(409, "ConflictException");
        ObjectNode different = groupBody(g, 2, 5).put("BalancingStrategy", "SPOT_ONLY");
        admin.createGroup(different).error(409, "ConflictException");
        assertThat(admin.describeGroup(g).ok().group()).isEqualTo(first);
    }

    @Test
    void listGameServerGroupsPagesOldestFirst() {
        List<String> mine = List.of("page-a", "page-b", "page-c", "page-d", "page-e");
        for (String name : mine) {
            LOCAL.passTime(Duration.ofSeconds(1));
            admin.createGroup(groupBody(name, 1, 1)).ok();
        }
        List<String> all = names(LOCAL.matchmaker().listAll("/game-server-groups", "GameServerGroups", 50));
        assertThat(all).doesNotHaveDuplicates().containsSubsequence(mine);
        for (int limit : List.of(1, 2, 3)) {
            List<String> paged = names(admin.listAll("/game-server-groups", "GameServerGroups", limit));
            assertThat(paged).as("Limit %d", limit).isEqualTo(all);
        }
        for (String name : mine) {
            admin.awaitGroup(name, Set.of("ACTIVE", "ERROR"), WORKFLOW);
        }
        admin.listGroups(query("NextToken", "bm90LWEtdG9rZW4.c2lnbmF0dXJl")).error(400, "InvalidRequestException");
    }

    @Test
    void groupOperationsAcceptTheUrlEncodedArn() {
        String g = "by-arn";
        JsonNode group = admin.createActive(groupBody(g, 1, 1));
        String arn = group.get("GameServerGroupArn").asText();
        assertThat(arn).matches("arn:aws[a-z-]*:gamelift:[a-z0-9-]+:[0-9]{12}:gameservergroup/" + g);
        LOCAL.onLocalProfile(p -> assertThat(arn).isEqualTo("arn:aws:gamelift:us-east-1:000000000000:gameservergroup/" + g));
        assertThat(GamefleetClient.groupPath(arn)).contains("%3A").contains("%2F");

        assertThat(admin.describeGroup(arn).ok().group()).isEqualTo(group);
        assertThat(LOCAL.matchmaker().describeGroup(arn).ok().group()).isEqualTo(group);
        assertThat(texts(admin.suspend(arn, "REPLACE_INSTANCE_TYPES").ok().group().get("SuspendedActions")))
                .containsExactly("REPLACE_INSTANCE_TYPES");
        assertThat(admin.describeInstances(arn, "").ok().body().get("GameServerInstances").size()).isEqualTo(1);
        String instance = admin.firstInstance(g);
        JsonNode server = admin.register(arn, "by-arn-1", instance).ok().server();
        assertThat(server.get("GameServerGroupName").asText()).isEqualTo(g);
        assertThat(server.get("GameServerGroupArn").asText()).isEqualTo(arn);
        assertThat(admin.describeServer(arn, "by-arn-1").ok().server().get("GameServerId").asText()).isEqualTo("by-arn-1");
        assertThat(LOCAL.matchmaker().claim(arn).ok().serverId()).isEqualTo("by-arn-1");
        assertThat(admin.listServers(arn, "").ok().body().get("GameServers").size()).isEqualTo(1);
        admin.deregister(arn, "by-arn-1").ok();
        admin.describeGroup(arn.replace("/" + g, "/no-such-group")).error(404, "NotFoundException");
    }

    @Test
    void anArnOfAnotherAccountOrRegionIsNotThisGroup() {
        String g = "foreign-arn";
        String[] arn = admin.createActive(groupBody(g, 1, 1)).get("GameServerGroupArn").asText().split(":", 6);
        String otherRegion = arn[3].equals("eu-west-1") ? "us-east-1" : "eu-west-1";
        String otherAccount = arn[4].equals("999999999999") ? "000000000000" : "999999999999";
        admin.describeGroup(String.join(":", arn[0], arn[1], arn[2], otherRegion, arn[4], arn[5]))
                .error(404, "NotFoundException");
        admin.describeGroup(String.join(":", arn[0], arn[1], arn[2], arn[3], otherAccount, arn[5]))
                .error(404, "NotFoundException");
        admin.describeGroup("arn:x:gameservergroup/" + g).error(404, "NotFoundException");
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static List<String> names(List<JsonNode> groups) {
        return groups.stream().map(g -> g.get("GameServerGroupName").asText()).toList();
    }
}
