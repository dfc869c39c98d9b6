package io.gamefleet.catalog;

import static io.gamefleet.catalog.FunctionAccess.BATCH_GET;
import static io.gamefleet.catalog.FunctionAccess.CONDITION_CHECK;
import static io.gamefleet.catalog.FunctionAccess.DELETE;
import static io.gamefleet.catalog.FunctionAccess.GET;
import static io.gamefleet.catalog.FunctionAccess.PUT;
import static io.gamefleet.catalog.FunctionAccess.QUERY;
import static io.gamefleet.catalog.FunctionAccess.UPDATE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.catalog.FunctionAccess.Access;
import io.gamefleet.catalog.FunctionAccess.Scaling;
import io.gamefleet.catalog.FunctionAccess.TableAccess;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** What each function may do with the tables and with Auto Scaling: the input of its IAM policy. */
class FunctionAccessTest {
    @Test
    void everyCatalogFunctionHasAnEntryAndNothingElseHas() {
        Set<String> functions = new HashSet<>();
        for (Operation operation : Operation.values()) {
            functions.add(operation.functionName());
        }
        functions.add(Routes.JSON_DOOR.functionName());
        Workflows.allSteps().forEach(s -> functions.add(s.functionName()));
        Triggers.SCHEDULES.forEach(s -> functions.add(s.functionName()));
        Triggers.EVENT_RULES.forEach(r -> functions.add(r.functionName()));
        PushChannel.ROUTES.forEach(r -> functions.add(r.functionName()));
        Routes.EXTENSIONS.forEach(e -> functions.add(e.functionName()));

        assertThat(FunctionAccess.all().keySet()).isEqualTo(functions).hasSize(44);
        functions.forEach(f -> assertThat(FunctionAccess.of(f)).isSameAs(FunctionAccess.all().get(f)));
    }

    @Test
    void everyPushRouteHasItsOwnAccessAmongTheDeployedFunctions() {
        for (PushChannel.WebSocketRoute route : PushChannel.ROUTES) {
            assertThat(FunctionAccess.ofPushRoute(route)).as(route.routeKey())
                    .isSameAs(FunctionAccess.all().get(route.functionName())).isNotNull();
        }
        // a health report reads its servers (and their instance when a copy lags) and writes leases
        assertThat(FunctionAccess.ofPushRoute(PushChannel.MESSAGE).tables()).extracting(t -> t.table().logicalName())
                .containsExactlyInAnyOrder("GameServerInstances", "GameServers");
        assertThat(FunctionAccess.ofPushRoute(PushChannel.DISCONNECT).tables()).extracting(t -> t.table().logicalName())
                .containsExactlyInAnyOrder("GameServerInstances", "GameServers");
    }

    @Test
    void onlyTheClaimsTheDeregistrationTheJsonDoorAndTheBalancerPostNotices() {
        Set<String> notifying = FunctionAccess.all().keySet().stream().filter(FunctionAccess::postsNotices)
                .collect(Collectors.toSet());
        assertThat(notifying).containsExactlyInAnyOrder(Operation.CLAIM_GAME_SERVER.functionName(),
                Operation.DEREGISTER_GAME_SERVER.functionName(), Routes.JSON_DOOR.functionName(),
                Triggers.BALANCER.functionName(), Routes.CREATE_SESSION.functionName());
        // A notice whose connection is gone clears it from the instance and reads it again; the
        // balancer's, to the connection it read this run, clears it and leaves a newer one to its next run.
        for (String name : notifying) {
            assertThat(tables(name).get(Tables.GAME_SERVER_INSTANCES.logicalName())).as(name)
                    .contains(name.equals(Triggers.BALANCER.functionName()) ? UPDATE : GET, UPDATE);
        }
    }

    @Test
    void anUnknownFunctionFailsSayingWhereToDeclareIt() {
        assertThatThrownBy(() -> FunctionAccess.of("gamefleet-Nothing")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("gamefleet-Nothing").hasMessageContaining(FunctionAccess.class.getName());
    }

    @Test
    void theEntriesSayWhatTheFunctionsDo() {
        assertThat(tables(Operation.DESCRIBE_GAME_SERVER_GROUP.functionName()))
                .isEqualTo(Map.of("GameServerGroups", Set.of(GET)));
        assertThat(FunctionAccess.of(Operation.LIST_GAME_SERVER_GROUPS.functionName()).tables()).containsExactly(
                new TableAccess(Tables.GAME_SERVER_GROUPS, Set.of(), Set.of(Tables.GROUPS_BY_CREATION_INDEX)));
        assertThat(tables(Operation.REGISTER_GAME_SERVER.functionName())).isEqualTo(Map.of(
                "GameServerGroups", Set.of(GET), "GameServerInstances", Set.of(GET, PUT),
                "GameServers", Set.of(CONDITION_CHECK, PUT, UPDATE)));
        // A new instance's addresses, recorded with it.
        assertThat(FunctionAccess.of(Operation.REGISTER_GAME_SERVER.functionName()).scaling())
                .containsExactlyInAnyOrder(Scaling.DESCRIBE, Scaling.DESCRIBE_INSTANCES);
        // A deregistration gives its instance's count back.
        assertThat(tables(Operation.DEREGISTER_GAME_SERVER.functionName())).containsEntry("GameServers",
                Set.of(GET, DELETE, UPDATE));
        assertThat(FunctionAccess.of(Operation.CLAIM_GAME_SERVER.functionName()).scaling()).isEmpty();
        assertThat(FunctionAccess.of(Workflows.DELETE_SCALING_GROUP.functionName()).scaling())
                .containsExactlyInAnyOrder(Scaling.DESCRIBE, Scaling.DELETE);
        // A transition reads the group's first gate (its shard count) before it writes the gates.
        assertThat(tables(Workflows.RECORD_FAILURE.functionName())).isEqualTo(Map.of(
                "GameServerGroups", Set.of(GET, PUT), "GameServers", Set.of(GET, PUT, DELETE)));
        // The process route reads the server and its process item; the report writes both.
        assertThat(tables(Routes.DESCRIBE_GAME_SERVER_PROCESS.functionName())).isEqualTo(Map.of("GameServers", Set.of(GET)));
        // A session's claim: ClaimGameServer's, its transaction's Put of the session beside the claim's UpdateItem.
        assertThat(tables(Routes.CREATE_SESSION.functionName())).isEqualTo(Map.of("GameServerGroups", Set.of(GET),
                "GameServers", Set.of(GET, PUT, UPDATE), "GameServerInstances", Set.of(GET, UPDATE)));
        assertThat(tables(Routes.DESCRIBE_SESSION.functionName())).isEqualTo(Map.of("GameServers", Set.of(GET)));
        // A listing of sessions: the group, the sessions index, the sessions and servers by key, the processes.
        assertThat(tables(Routes.LIST_SESSIONS.functionName())).isEqualTo(Map.of("GameServerGroups", Set.of(GET),
                "GameServers", Set.of(GET, BATCH_GET)));
        assertThat(FunctionAccess.of(Routes.LIST_SESSIONS.functionName()).tables().get(1).queriedIndexes())
                .containsExactly(Tables.SESSIONS_BY_GROUP_INDEX);
        assertThat(tables(PushChannel.MESSAGE.functionName())).containsEntry("GameServers", Set.of(GET, BATCH_GET, PUT, UPDATE));
        // $disconnect reads the instance the keys-only connection index names.
        assertThat(tables(PushChannel.DISCONNECT.functionName())).isEqualTo(Map.of(
                "GameServerInstances", Set.of(GET, UPDATE), "GameServers", Set.of(BATCH_GET, UPDATE)));
        assertThat(FunctionAccess.of(Triggers.BALANCER.functionName()).scaling())
                .containsExactlyInAnyOrder(Scaling.DESCRIBE, Scaling.DESCRIBE_INSTANCES, Scaling.BALANCE);
        // The group's scaling group for a replacement; the instance's status moved conditionally.
        assertThat(tables(Triggers.INSTANCE_EVENTS.functionName())).isEqualTo(Map.of(
                "GameServerGroups", Set.of(GET), "GameServerInstances", Set.of(GET, UPDATE, DELETE),
                "GameServers", Set.of(GET, BATCH_GET, UPDATE, DELETE), "SpotInterruptions", Set.of(PUT)));
        // A container group: its task definition read from ECS, then stored as CreateGameServerGroup stores a group.
        assertThat(FunctionAccess.of(Routes.CREATE_CONTAINER_GROUP.functionName()).scaling())
                .containsExactly(Scaling.READ_TASK_DEFINITIONS);
        assertThat(tables(Routes.CREATE_CONTAINER_GROUP.functionName())).isEqualTo(
                tables(Operation.CREATE_GAME_SERVER_GROUP.functionName()));
    }

    @Test
    void theJsonDoorMayDoWhatAnyOperationMayAndNoMore() {
        Access door = FunctionAccess.of(Routes.JSON_DOOR.functionName());
        Set<Scaling> scaling = EnumSet.noneOf(Scaling.class);
        for (Operation operation : Operation.values()) {
            Access access = FunctionAccess.of(operation.functionName());
            scaling.addAll(access.scaling());
            for (TableAccess t : access.tables()) {
                TableAccess doors = door.tables().stream().filter(d -> d.table().equals(t.table())).findFirst()
                        .orElseThrow();
                assertThat(doors.actions()).containsAll(t.actions());
                assertThat(doors.queriedIndexes()).containsAll(t.queriedIndexes());
            }
        }
        assertThat(door.scaling()).isEqualTo(scaling).containsExactlyInAnyOrder(Scaling.DESCRIBE,
                Scaling.DESCRIBE_INSTANCES, Scaling.READ_LAUNCH_TEMPLATES);
        assertThat(tables(Routes.JSON_DOOR.functionName())).isEqualTo(Map.of(
                "GameServerGroups", Set.of(GET, PUT),
                "GameServers", Set.of(GET, BATCH_GET, PUT, UPDATE, DELETE, CONDITION_CHECK),
                "GameServerInstances", Set.of(GET, PUT, UPDATE, QUERY, BATCH_GET)));
        assertThat(door.tables().stream().filter(t -> t.table().equals(Tables.GAME_SERVERS)).findFirst().orElseThrow()
                .queriedIndexes()).containsExactlyInAnyOrder(Tables.SERVERS_BY_GROUP_INDEX, Tables.CLAIMABLE_INDEX);
        assertThat(door.tables()).extracting(TableAccess::table).first().isEqualTo(Tables.GAME_SERVER_GROUPS);
    }

    @Test
    void aTableAccessMayQueryOnlyTheTablesIndexes() {
        assertThat(new TableAccess(Tables.GAME_SERVERS, Set.of(QUERY), Set.of(Tables.CLAIMABLE_INDEX)).queriedIndexes())
                .containsExactly(Tables.CLAIMABLE_INDEX);
        assertThatThrownBy(() -> new TableAccess(Tables.GAME_SERVERS, Set.of(QUERY), Set.of(Tables.INSTANCES_BY_ID_INDEX)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("GameServers has no index ByInstanceId");
    }

    @Test
    void anAccessKeepsItsOwnCopies() {
        Set<Scaling> scaling = EnumSet.of(Scaling.DESCRIBE);
        Access access = new Access(List.of(), scaling);
        scaling.add(Scaling.CREATE);
        assertThat(access.scaling()).containsExactly(Scaling.DESCRIBE);
        assertThat(new Access(List.of(), EnumSet.noneOf(Scaling.class)).scaling()).isEmpty();
    }

    private static Map<String, Set<String>> tables(String function) {
        return FunctionAccess.of(function).tables().stream()
                .collect(Collectors.toMap(t -> t.table().logicalName(), TableAccess::actions));
    }
}
