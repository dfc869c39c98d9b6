package io.gamefleet.catalog;

import static io.gamefleet.catalog.Tables.GAME_SERVERS;
import static io.gamefleet.catalog.Tables.GAME_SERVER_GROUPS;
import static io.gamefleet.catalog.Tables.GAME_SERVER_INSTANCES;
import static io.gamefleet.catalog.Tables.SPOT_INTERRUPTIONS;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What each function does with the tables and with Auto Scaling / EC2 / ECS: the input of its IAM
 * policy (the CDK app grants exactly this). Read from the functions' code (the repository calls on
 * each handler's path through the domain services); the comments name the calls. Whoever adds a
 * repository call extends the list here; synthesis fails for a catalog function without an entry,
 * and the infra tests check the entries' shape (read-only operations write nothing, ...). The
 * local profile holds each function's DynamoDB calls to its entry (local {@code TableGrants}),
 * so a call missing here fails the tests on it as IAM would fail it in AWS.
 *
 * <p>Recurring patterns in the functions:
 * <ul>
 *   <li>a group transition ({@code GroupService.transition}): GetItem on the group, GetItem of
 *       its first claim gate in GameServers (how many shards its servers are in), then one
 *       TransactWriteItems of a conditional Put on the group and the group's claim gates in
 *       GameServers (a Put, or a Delete once the group is DELETED). TransactWriteItems is
 *       authorized item by item, as PutItem / DeleteItem / ConditionCheckItem;</li>
 *   <li>a group lookup ({@code Groups.require}): GetItem on the group.</li>
 * </ul>
 */
public final class FunctionAccess {
    public static final String GET = "GetItem";
    public static final String PUT = "PutItem";
    public static final String UPDATE = "UpdateItem";
    public static final String DELETE = "DeleteItem";
    public static final String CONDITION_CHECK = "ConditionCheckItem";
    public static final String QUERY = "Query";
    public static final String BATCH_GET = "BatchGetItem";

    /**
     * What a function asks of Auto Scaling and EC2, and of ECS for container groups (the CDK app
     * turns each into IAM statements).
     */
    public enum Scaling {
        /** DescribeAutoScalingGroups. */
        DESCRIBE,
        /**
         * EC2 DescribeInstances: a new instance's own addresses, recorded with it, which its game
         * servers' ConnectionInfo must name.
         */
        DESCRIBE_INSTANCES,
        /** DescribeLaunchTemplateVersions: a new group's template's instance profile, checked before it is stored. */
        READ_LAUNCH_TEMPLATES,
        /**
         * ECS DescribeTaskDefinition: a new container group's task definition, checked before the
         * group is stored (its containers, ports, compatibilities, architecture, network mode).
         */
        READ_TASK_DEFINITIONS,
        /** CreateAutoScalingGroup with the managed tag, its scaling policy, launching from a template. */
        CREATE,
        /** Lifting scale-in protection, shrinking a managed Auto Scaling group to zero and deleting it. */
        DELETE,
        /**
         * Instance types, desired capacity, scale-in protection and termination of managed groups'
         * instances, and the scale-in of their target tracking policy (a standby buffer turns it off).
         */
        BALANCE,
        /**
         * Desired capacity and termination of a managed group's instance with its decrement: an
         * interrupted instance's replacement, started at its warning and ended with it.
         */
        REPLACE
    }

    /** DynamoDB actions (without "dynamodb:") on a table's items, and the indexes it queries. */
    public record TableAccess(TableDefinition table, Set<String> actions, Set<String> queriedIndexes) {
        public TableAccess {
            actions = Set.copyOf(actions);
            queriedIndexes = Set.copyOf(queriedIndexes);
            for (String index : queriedIndexes) {
                if (table.indexes().stream().noneMatch(i -> i.name().equals(index))) {
                    throw new IllegalArgumentException(table.logicalName() + " has no index " + index);
                }
            }
        }
    }

    public record Access(List<TableAccess> tables, Set<Scaling> scaling) {
        public Access {
            tables = List.copyOf(tables);
            scaling = scaling.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(scaling));
        }

        /** Whether the role may make this item action (without "dynamodb:") on the table. */
        public boolean allows(TableDefinition table, String action) {
            return tables.stream().anyMatch(t -> t.table().equals(table) && t.actions().contains(action));
        }
    }

    private static final Map<String, Access> BY_FUNCTION = new LinkedHashMap<>();

    static {
        // ---- API operations (io.gamefleet.api -> GroupService / GameServerService) ----
        // create: the launch template's version (its instance profile); transactional Put of the group and its
        // gate; if the workflow cannot start, a transition to ERROR (its gate's GetItem).
        apiWithScaling(Operation.CREATE_GAME_SERVER_GROUP, Set.of(Scaling.READ_LAUNCH_TEMPLATES),
                items(GAME_SERVER_GROUPS, GET, PUT), items(GAME_SERVERS, GET, PUT));
        // list: one page of the groups' creation-time index.
        api(Operation.LIST_GAME_SERVER_GROUPS, index(GAME_SERVER_GROUPS, Tables.GROUPS_BY_CREATION_INDEX));
        api(Operation.DESCRIBE_GAME_SERVER_GROUP, items(GAME_SERVER_GROUPS, GET));
        // update, delete (to DELETE_SCHEDULED), suspend, resume: a transition.
        for (Operation op : List.of(Operation.UPDATE_GAME_SERVER_GROUP, Operation.DELETE_GAME_SERVER_GROUP,
                Operation.SUSPEND_GAME_SERVER_GROUP, Operation.RESUME_GAME_SERVER_GROUP)) {
            api(op, items(GAME_SERVER_GROUPS, GET, PUT), items(GAME_SERVERS, GET, PUT));
        }
        // the group, then one page of its instances (Query) or the named ones (BatchGetItem).
        api(Operation.DESCRIBE_GAME_SERVER_INSTANCES, items(GAME_SERVER_GROUPS, GET),
                items(GAME_SERVER_INSTANCES, QUERY, BATCH_GET));
        // the ACTIVE group, the instance record (an instance launched since the balancer last ran is
        // looked up in the scaling group and EC2, and recorded), then one transaction: ConditionCheck on the
        // gate, conditional Put, the instance's count (UpdateItem).
        apiWithScaling(Operation.REGISTER_GAME_SERVER, Set.of(Scaling.DESCRIBE, Scaling.DESCRIBE_INSTANCES),
                items(GAME_SERVER_GROUPS, GET), items(GAME_SERVER_INSTANCES, GET, PUT),
                items(GAME_SERVERS, CONDITION_CHECK, PUT, UPDATE));
        // the group, one page of the group index (each shard), the page's servers by key (BatchGetItem).
        api(Operation.LIST_GAME_SERVERS, items(GAME_SERVER_GROUPS, GET),
                new TableAccess(GAME_SERVERS, Set.of(BATCH_GET), Set.of(Tables.SERVERS_BY_GROUP_INDEX)));
        api(Operation.DESCRIBE_GAME_SERVER, items(GAME_SERVERS, GET));
        // the group's status, a conditional UpdateItem; on a failed condition a GetItem says why.
        api(Operation.UPDATE_GAME_SERVER, items(GAME_SERVER_GROUPS, GET), items(GAME_SERVERS, GET, UPDATE));
        // the server (GetItem), then one transaction: a conditional DeleteItem and its instance's count
        // (UpdateItem); on a failed condition a GetItem says why. An ADMIN's terminate notice whose
        // connection is gone: the instance's connection cleared (UpdateItem) and read again.
        api(Operation.DEREGISTER_GAME_SERVER, items(GAME_SERVERS, GET, DELETE, UPDATE),
                items(GAME_SERVER_INSTANCES, GET, UPDATE));
        // the claim index, the group when the gate is not ACTIVE, conditional UpdateItems (GetItem for a
        // named claim; an UpdateItem takes a server that stopped reporting health out of the index); a
        // claimed notice whose connection is gone: as for DeregisterGameServer.
        api(Operation.CLAIM_GAME_SERVER, items(GAME_SERVER_GROUPS, GET),
                new TableAccess(GAME_SERVERS, Set.of(GET, UPDATE), Set.of(Tables.CLAIMABLE_INDEX)),
                items(GAME_SERVER_INSTANCES, GET, UPDATE));

        // ---- Gamefleet's own routes (io.gamefleet.api) ----
        // the server (GetItem), then its process item (GetItem), both in GameServers.
        put(Routes.DESCRIBE_GAME_SERVER_PROCESS.functionName(), new Access(List.of(items(GAME_SERVERS, GET)), Set.of()));
        // as ClaimGameServer's claim of any server, each candidate's conditional UpdateItem in one
        // TransactWriteItems with the session's conditional PutItem, then the claimed server (GetItem); a
        // retry (its transaction refused by the stored session): the session, its server and its process item (GetItem).
        put(Routes.CREATE_SESSION.functionName(), new Access(List.of(items(GAME_SERVER_GROUPS, GET),
                new TableAccess(GAME_SERVERS, Set.of(GET, PUT, UPDATE), Set.of(Tables.CLAIMABLE_INDEX)),
                items(GAME_SERVER_INSTANCES, GET, UPDATE)), Set.of()));
        // the session, its server and the server's process item (GetItem).
        put(Routes.DESCRIBE_SESSION.functionName(), new Access(List.of(items(GAME_SERVERS, GET)), Set.of()));
        // the server, then the session its claim names (GetItem).
        put(Routes.DESCRIBE_GAME_SERVER_SESSION.functionName(), new Access(List.of(items(GAME_SERVERS, GET)), Set.of()));
        // the group (GetItem), then its standby item beside it (PutItem; DescribeStandbyPolicy: GetItem).
        put(Routes.PUT_STANDBY_POLICY.functionName(), new Access(List.of(items(GAME_SERVER_GROUPS, GET, PUT)), Set.of()));
        put(Routes.DESCRIBE_STANDBY_POLICY.functionName(), new Access(List.of(items(GAME_SERVER_GROUPS, GET)), Set.of()));

        // a group write, as UpdateGameServerGroup's: the group (GetItem), its first gate (GetItem on
        // GameServers), then the group's Put and its gates' in one transaction.
        put(Routes.PUT_CLAIM_STRATEGY.functionName(), new Access(List.of(items(GAME_SERVER_GROUPS, GET, PUT),
                items(GAME_SERVERS, GET, PUT)), Set.of()));
        // the group (GetItem).
        put(Routes.DESCRIBE_CLAIM_STRATEGY.functionName(), new Access(List.of(items(GAME_SERVER_GROUPS, GET)), Set.of()));
        // the group (GetItem), the sessions index's shards (Query), the sessions and their servers
        // (BatchGetItem), each live session's process item (GetItem).
        put(Routes.LIST_SESSIONS.functionName(), new Access(List.of(items(GAME_SERVER_GROUPS, GET),
                new TableAccess(GAME_SERVERS, Set.of(GET, BATCH_GET), Set.of(Tables.SESSIONS_BY_GROUP_INDEX))),
                Set.of()));
        // one page of the groups' creation-time index, then one page of each ACTIVE group's instances
        // (Query), up to QosServers' caps.
        put(Routes.LIST_QOS_SERVERS.functionName(), new Access(List.of(index(GAME_SERVER_GROUPS,
                Tables.GROUPS_BY_CREATION_INDEX), items(GAME_SERVER_INSTANCES, QUERY)), Set.of()));
        // the task definition (ECS), then as CreateGameServerGroup: the group's and its gate's transactional
        // Put; if the workflow cannot start, a transition to ERROR (its gate's GetItem).
        put(Routes.CREATE_CONTAINER_GROUP.functionName(), new Access(List.of(items(GAME_SERVER_GROUPS, GET, PUT),
                items(GAME_SERVERS, GET, PUT)), Set.of(Scaling.READ_TASK_DEFINITIONS)));
        // the settings' peers alone: no table.
        put(Routes.LIST_REGIONS.functionName(), new Access(List.of(), Set.of()));
        // the group's item and its summary's beside it (two GetItems), no listing.
        put(Routes.DESCRIBE_GROUP_SUMMARY.functionName(), new Access(List.of(items(GAME_SERVER_GROUPS, GET)), Set.of()));
        // the group's item (a group that is not there is a 404), then CloudWatch's GetMetricData (readsMetrics).
        put(Routes.DESCRIBE_GROUP_METRICS.functionName(), new Access(List.of(items(GAME_SERVER_GROUPS, GET)), Set.of()));

        // the JSON door runs every operation in-process, so it may do what any of them may.
        put(Routes.JSON_DOOR.functionName(), union(Routes.ALL.stream().map(r -> BY_FUNCTION.get(r.functionName())).toList()));

        // ---- Workflow steps (io.gamefleet.workflow -> GroupLifecycle) ----
        // each transition reads the group's first gate (GetItem on GameServers) before its transaction.
        step(Workflows.START_ACTIVATION, Set.of(), items(GAME_SERVER_GROUPS, GET, PUT), items(GAME_SERVERS, GET, PUT));
        step(Workflows.CREATE_SCALING_GROUP, Set.of(Scaling.DESCRIBE, Scaling.CREATE), items(GAME_SERVER_GROUPS, GET));
        // records the scaling group's new instances (those the group's records lack: Query), with their addresses.
        step(Workflows.CHECK_ACTIVATION, Set.of(Scaling.DESCRIBE, Scaling.DESCRIBE_INSTANCES), items(GAME_SERVER_GROUPS, GET),
                items(GAME_SERVER_INSTANCES, QUERY, PUT));
        step(Workflows.COMPLETE_ACTIVATION, Set.of(), items(GAME_SERVER_GROUPS, GET, PUT), items(GAME_SERVERS, GET, PUT));
        // counts UTILIZED servers over the group's index.
        step(Workflows.CHECK_READY_TO_DELETE, Set.of(), items(GAME_SERVER_GROUPS, GET),
                index(GAME_SERVERS, Tables.SERVERS_BY_GROUP_INDEX));
        step(Workflows.START_DELETING, Set.of(), items(GAME_SERVER_GROUPS, GET, PUT), items(GAME_SERVERS, GET, PUT));
        step(Workflows.DELETE_SCALING_GROUP, Set.of(Scaling.DESCRIBE, Scaling.DELETE), items(GAME_SERVER_GROUPS, GET));
        // deletes a batch of the group's servers (found through its index; each read, then deleted with its
        // instance's count, UpdateItem) and instances (each one's count deleted).
        step(Workflows.PURGE_GROUP_RECORDS, Set.of(), items(GAME_SERVER_GROUPS, GET),
                new TableAccess(GAME_SERVERS, Set.of(GET, DELETE, UPDATE), Set.of(Tables.SERVERS_BY_GROUP_INDEX)),
                items(GAME_SERVER_INSTANCES, QUERY, DELETE));
        // to DELETED: the gate is deleted.
        step(Workflows.COMPLETE_DELETION, Set.of(), items(GAME_SERVER_GROUPS, GET, PUT), items(GAME_SERVERS, GET, DELETE));
        // to ERROR (gate Put), or a no-op rewrite of a DELETED group (gate Delete).
        step(Workflows.RECORD_FAILURE, Set.of(), items(GAME_SERVER_GROUPS, GET, PUT), items(GAME_SERVERS, GET, PUT, DELETE));

        // ---- Triggers (io.gamefleet.triggers -> WorkflowReconciler, SpotBalancer, InstanceEvents) ----
        // every group (creation-time index); a group whose workflow was lost: a transition (its
        // restart noted in StatusReason, or ERROR); per ACTIVE group: its servers (group index, then
        // BatchGetItem), instances (Query), recent interruptions (Query); writes: instance records
        // (PutItem, with their addresses from EC2; conditional UpdateItem to drain, or to end an interrupted
        // instance's replacement), servers' instance status (GetItem + conditional UpdateItem), sweeps and
        // forgotten instances (GetItem, DeleteItem with the instance's count, UpdateItem; the count deleted),
        // push connections older than API Gateway's lifetime cleared (conditional UpdateItem, instance and servers);
        // a retiring instance drained as above, its notice's connection cleared when gone (conditional UpdateItem),
        // and an instance at the end of its lifetime ended and forgotten as above; a group's standby
        // buffer (its item beside the group: GetItem, its state a conditional UpdateItem), idle instances
        // ended for it as drained ones are; the group's summary, its counts (its item beside the group: PutItem).
        trigger(Triggers.BALANCER.functionName(), Set.of(Scaling.DESCRIBE, Scaling.DESCRIBE_INSTANCES, Scaling.BALANCE),
                new TableAccess(GAME_SERVER_GROUPS, Set.of(GET, PUT, UPDATE), Set.of(Tables.GROUPS_BY_CREATION_INDEX)),
                new TableAccess(GAME_SERVERS, Set.of(GET, BATCH_GET, PUT, UPDATE, DELETE), Set.of(Tables.SERVERS_BY_GROUP_INDEX)),
                items(GAME_SERVER_INSTANCES, QUERY, PUT, UPDATE, DELETE),
                items(SPOT_INTERRUPTIONS, QUERY));
        // the instance (or a container group's task) by id (index), its servers (index, then BatchGetItem); a warning: instance status on both
        // (conditional UpdateItem, GetItem when it moved meanwhile), one interruption record, the
        // group's status, and its replacement (describe, desired capacity, conditional UpdateItem);
        // a termination: the replacement's end (describe, termination or desired capacity,
        // conditional UpdateItem), then both deleted (each server with its instance's count, the count deleted).
        trigger(Triggers.INSTANCE_EVENTS.functionName(), Set.of(Scaling.DESCRIBE, Scaling.REPLACE),
                items(GAME_SERVER_GROUPS, GET),
                new TableAccess(GAME_SERVER_INSTANCES, Set.of(GET, UPDATE, DELETE), Set.of(Tables.INSTANCES_BY_ID_INDEX)),
                new TableAccess(GAME_SERVERS, Set.of(GET, BATCH_GET, UPDATE, DELETE), Set.of(Tables.SERVERS_BY_INSTANCE_INDEX)),
                items(SPOT_INTERRUPTIONS, PUT));

        // ---- The push channel's routes (io.gamefleet.push -> PushConnections) ----
        // the instance (GetItem), its connection recorded (conditional UpdateItem), copied onto
        // its game servers (their ids from the instance index, then a conditional UpdateItem each).
        put(PushChannel.CONNECT.functionName(), new Access(List.of(items(GAME_SERVER_INSTANCES, GET, UPDATE),
                new TableAccess(GAME_SERVERS, Set.of(UPDATE), Set.of(Tables.SERVERS_BY_INSTANCE_INDEX))), Set.of()));
        // the instance holding the connection (index, keys only, then GetItem of the instance), its connection
        // cleared (conditional UpdateItem), then its servers' health leases ended (their ids from the instance
        // index, the items, an UpdateItem each).
        put(PushChannel.DISCONNECT.functionName(), new Access(List.of(new TableAccess(GAME_SERVER_INSTANCES,
                Set.of(GET, UPDATE), Set.of(Tables.INSTANCES_BY_PUSH_CONNECTION_INDEX)),
                new TableAccess(GAME_SERVERS, Set.of(BATCH_GET, UPDATE), Set.of(Tables.SERVERS_BY_INSTANCE_INDEX))),
                Set.of()));
        // a ping's pong: no table. A health report: its servers (BatchGetItem, GetItem of one not seen
        // yet), the instance when a server's connection copy lags (GetItem), the leases and process
        // summaries (UpdateItem), a changed process's item (PutItem).
        put(PushChannel.MESSAGE.functionName(), new Access(List.of(items(GAME_SERVER_INSTANCES, GET),
                items(GAME_SERVERS, GET, BATCH_GET, PUT, UPDATE)), Set.of()));
    }

    /**
     * The functions that post notices to the agents (PostToConnection on the push channel's
     * management API): the claim ({@code claimed}), the deregistration ({@code terminate}), the
     * JSON door, which runs both, the balancer ({@code retiring}) and a session's claim ({@code claimed}).
     */
    private static final Set<String> NOTIFYING = Set.of(Operation.CLAIM_GAME_SERVER.functionName(),
            Operation.DEREGISTER_GAME_SERVER.functionName(), Routes.JSON_DOOR.functionName(),
            Triggers.BALANCER.functionName(), Routes.CREATE_SESSION.functionName());

    /**
     * The functions that ask for a group's standby evaluation between the balancer's runs (an
     * asynchronous Invoke of the balancer's function, lambda:InvokeFunction on its alias alone):
     * the claim, the deregistration, the JSON door, which runs both, and a session's claim.
     */
    private static final Set<String> REQUESTING_STANDBY = Set.of(Operation.CLAIM_GAME_SERVER.functionName(),
            Operation.DEREGISTER_GAME_SERVER.functionName(), Routes.JSON_DOOR.functionName(),
            Routes.CREATE_SESSION.functionName());

    /**
     * The functions that call this stage's peers ({@link Settings#PEERS}): CreateSession forwards a
     * session to a peer, ListQosServers asks each peer for its beacons, ListRegions names them. In
     * AWS each assumes a peer's MATCHMAKER role (sts:AssumeRole on those roles alone) and signs
     * with it.
     */
    private static final Set<String> CALLING_PEERS = Set.of(Routes.CREATE_SESSION.functionName(),
            Routes.LIST_QOS_SERVERS.functionName(), Routes.LIST_REGIONS.functionName());

    /**
     * The functions that read the groups' metrics back from CloudWatch (GetMetricData, which has
     * no resource-level permissions: granted on {@code *}).
     */
    private static final Set<String> READING_METRICS = Set.of(Routes.DESCRIBE_GROUP_METRICS.functionName());

    private FunctionAccess() {}

    /** Whether the function reads the groups' metrics from CloudWatch (cloudwatch:GetMetricData). */
    public static boolean readsMetrics(String functionName) {
        return READING_METRICS.contains(functionName);
    }

    /** The access of a push channel route's function. */
    public static Access ofPushRoute(PushChannel.WebSocketRoute route) {
        return of(route.functionName());
    }

    /** Whether the function posts notices to agents (and so needs the push channel's endpoint and connections). */
    public static boolean postsNotices(String functionName) {
        return NOTIFYING.contains(functionName);
    }

    /** Whether the function asks for standby evaluations (and so needs the balancer's alias and leave to invoke it). */
    public static boolean requestsStandbyEvaluations(String functionName) {
        return REQUESTING_STANDBY.contains(functionName);
    }

    /** Whether the function calls the stage's peers (and so needs {@link Settings#PEERS} and leave to assume their roles). */
    public static boolean callsPeers(String functionName) {
        return CALLING_PEERS.contains(functionName);
    }

    /** The access of a catalog function; fails for a function this table does not know. */
    public static Access of(String functionName) {
        Access access = BY_FUNCTION.get(functionName);
        if (access == null) {
            throw new IllegalStateException("no table/compute access is declared for function " + functionName
                    + ": add it to " + FunctionAccess.class.getName());
        }
        return access;
    }

    public static Map<String, Access> all() {
        return Map.copyOf(BY_FUNCTION);
    }

    private static void api(Operation operation, TableAccess... tables) {
        put(operation.functionName(), new Access(List.of(tables), Set.of()));
    }

    private static void apiWithScaling(Operation operation, Set<Scaling> scaling, TableAccess... tables) {
        put(operation.functionName(), new Access(List.of(tables), scaling));
    }

    private static void step(WorkflowStep step, Set<Scaling> scaling, TableAccess... tables) {
        put(step.functionName(), new Access(List.of(tables), scaling));
    }

    private static void trigger(String functionName, Set<Scaling> scaling, TableAccess... tables) {
        put(functionName, new Access(List.of(tables), scaling));
    }

    private static void put(String functionName, Access access) {
        if (BY_FUNCTION.putIfAbsent(functionName, access) != null) {
            throw new IllegalStateException("access of " + functionName + " declared twice");
        }
        if (access.tables().stream().map(TableAccess::table).distinct().count() != access.tables().size()) {
            throw new IllegalStateException("access of " + functionName + " names a table twice");
        }
    }

    private static Access union(List<Access> accesses) {
        Map<TableDefinition, Set<String>> actions = new LinkedHashMap<>();
        Map<TableDefinition, Set<String>> indexes = new LinkedHashMap<>();
        Set<Scaling> scaling = EnumSet.noneOf(Scaling.class);
        for (Access access : accesses) {
            scaling.addAll(access.scaling());
            for (TableAccess t : access.tables()) {
                actions.computeIfAbsent(t.table(), k -> new TreeSet<>()).addAll(t.actions());
                indexes.computeIfAbsent(t.table(), k -> new TreeSet<>()).addAll(t.queriedIndexes());
            }
        }
        return new Access(actions.keySet().stream().map(t -> new TableAccess(t, actions.get(t), indexes.get(t))).toList(),
                scaling);
    }

    private static TableAccess items(TableDefinition table, String... actions) {
        return new TableAccess(table, Set.of(actions), Set.of());
    }

    private static TableAccess index(TableDefinition table, String index) {
        return new TableAccess(table, Set.of(), Set.of(index));
    }
}
