package io.gamefleet.catalog;

import java.util.List;

/**
 * Deployment settings the functions read from their environment, with their defaults. The CDK
 * app sets them from context values; the local profile from its flags.
 */
public final class Settings {
    public record Setting(String environmentVariable, String defaultValue, String meaning) {}

    public static final Setting CLAIM_TTL_SECONDS =
            new Setting("GAMEFLEET_CLAIM_TTL_SECONDS", "60", "how long a claim lasts");
    public static final Setting HEALTH_TIMEOUT_SECONDS =
            new Setting("GAMEFLEET_HEALTH_TIMEOUT_SECONDS", "180", "heartbeat window of a game server");
    public static final Setting DELETED_RETENTION_SECONDS =
            new Setting("GAMEFLEET_DELETED_RETENTION_SECONDS", "86400", "how long a DELETED group stays describable");
    public static final Setting ACTIVATION_TIMEOUT_SECONDS =
            new Setting("GAMEFLEET_ACTIVATION_TIMEOUT_SECONDS", "900", "how long activation waits for the first instance");
    /**
     * No default: a key everyone knows would let any caller forge page tokens. Where no secret is
     * named ({@link #PAGE_TOKEN_SECRET_ARN}) it must be set, else the functions refuse to start; the
     * local profile sets one of its own, new each run.
     */
    public static final Setting PAGE_TOKEN_KEY =
            new Setting("GAMEFLEET_PAGE_TOKEN_KEY", "", "HMAC key that signs pagination tokens");
    /**
     * Where a deployment keeps that key: the functions read the secret once, as they start (before
     * a SnapStart snapshot), so the key is in no function's configuration. Empty (the local
     * profile): {@link #PAGE_TOKEN_KEY} is the key.
     */
    public static final Setting PAGE_TOKEN_SECRET_ARN =
            new Setting("GAMEFLEET_PAGE_TOKEN_SECRET_ARN", "",
                    "the Secrets Manager secret whose value is the pagination tokens' HMAC key");
    public static final Setting ACCOUNT_ID =
            new Setting("GAMEFLEET_ACCOUNT_ID", LocalAccount.ACCOUNT_ID, "account id used in the ARNs Gamefleet builds");
    public static final Setting BALANCER_RATE_SECONDS =
            new Setting("GAMEFLEET_BALANCER_RATE_SECONDS", "60", "how often the balancer runs");
    public static final Setting VIABILITY_WINDOW_SECONDS =
            new Setting("GAMEFLEET_VIABILITY_WINDOW_SECONDS", "3600", "how far back Spot interruptions count");
    public static final Setting VIABILITY_THRESHOLD =
            new Setting("GAMEFLEET_VIABILITY_THRESHOLD", "0.2",
                    "interruptions per instance of a type within the window above which the type is not viable");
    /**
     * The most game servers one instance may have registered at once: one more RegisterGameServer
     * is refused LimitExceededException, whoever calls, so that one instance's credentials cannot
     * fill a group (docs/api.md, "What one instance can do").
     */
    public static final Setting MAX_GAME_SERVERS_PER_INSTANCE =
            new Setting("GAMEFLEET_MAX_GAME_SERVERS_PER_INSTANCE", "16",
                    "how many game servers one instance may have registered at once");
    /**
     * How long an instance lives (PlayFab's 10 days): at its launch time plus this it is replaced,
     * by Auto Scaling's MaxInstanceLifetime where Auto Scaling takes the value, and by the balancer
     * where it does not (a protected instance, a lifetime below a day). Hours, a fraction allowed;
     * 0: no limit ({@link Lifetimes}).
     */
    public static final Setting MAX_INSTANCE_LIFETIME_HOURS =
            new Setting("GAMEFLEET_MAX_INSTANCE_LIFETIME_HOURS", "240",
                    "how long an instance lives before it is replaced, in hours (0: no limit)");
    /**
     * The lifetime a game server is guaranteed (PlayFab's 23 hours): from its instance's end minus
     * this on, the instance is retiring, DRAINING, and takes no claim. Hours, a fraction allowed;
     * below {@link #MAX_INSTANCE_LIFETIME_HOURS}; 0: none.
     */
    public static final Setting GUARANTEED_SERVER_LIFETIME_HOURS =
            new Setting("GAMEFLEET_GUARANTEED_SERVER_LIFETIME_HOURS", "23",
                    "the lifetime a claimed game server is guaranteed, in hours: an instance with less left takes no claim");
    /**
     * {@code on}: a game server's ConnectionInfo names one of its instance's own addresses, with a
     * port, so that an instance cannot send players to a host of its choosing; {@code off} lets
     * game servers name relays.
     */
    public static final Setting CONNECTION_INFO_CHECK =
            new Setting("GAMEFLEET_CONNECTION_INFO_CHECK", "on",
                    "on: ConnectionInfo must name one of the instance's own addresses and a port; off: any (relays)");
    /**
     * The fleet the throttles are sized for ({@link Throttles}): API Gateway's per route, the
     * local edge's, and each instance's fair share of them, which the functions hold.
     */
    public static final Setting EXPECTED_GAME_SERVERS =
            new Setting("GAMEFLEET_EXPECTED_GAME_SERVERS", "10000", "how many game servers the throttles are sized for");
    public static final Setting HEARTBEAT_SECONDS =
            new Setting("GAMEFLEET_HEARTBEAT_SECONDS", "30", "how often each game server reports health");
    /** FleetIQ's own ClaimGameServer quota by default. */
    public static final Setting CLAIMS_PER_SECOND =
            new Setting("GAMEFLEET_CLAIMS_PER_SECOND", "20", "the claims per second the throttles admit");
    public static final Setting SCALING_GROUP_PREFIX =
            new Setting("GAMEFLEET_SCALING_GROUP_PREFIX", "gamefleet-",
                    "prefix of the Auto Scaling groups' names, which IAM scopes a deployment's permissions by");
    public static final Setting STAGE =
            new Setting("GAMEFLEET_STAGE", "local",
                    "the stage, which the Auto Scaling groups carry in their gamefleet:stage tag");
    /**
     * The CDK app sets it: the stack's GameServerInstanceProfile and the deployer's context key
     * instanceProfileArns. Empty: no template that names an instance profile is accepted.
     */
    public static final Setting INSTANCE_PROFILE_ARNS =
            new Setting("GAMEFLEET_INSTANCE_PROFILE_ARNS", "",
                    "comma-separated ARNs of the instance profiles a group's launch template may name");
    public static final Setting ACTIVATION_STATE_MACHINE_ARN =
            new Setting("GAMEFLEET_ACTIVATION_STATE_MACHINE_ARN", "", "the activation workflow");
    public static final Setting DELETION_STATE_MACHINE_ARN =
            new Setting("GAMEFLEET_DELETION_STATE_MACHINE_ARN", "", "the deletion workflow");
    /**
     * Set by the CDK app where the functions are traced (context tracing), not a context value of
     * its own: the functions then add X-Ray's interceptor to their AWS clients.
     */
    public static final Setting TRACING =
            new Setting("GAMEFLEET_TRACING", "false", "whether the functions trace their AWS calls with X-Ray");

    /**
     * Not in {@link #ALL}: the stack derives it from its WebSocket API's stage, for the functions
     * that post notices ({@link FunctionAccess#postsNotices}), so it is no context key; the local
     * profile sets it to its edge.
     */
    public static final Setting PUSH_ENDPOINT =
            new Setting("GAMEFLEET_PUSH_ENDPOINT", "",
                    "the push channel's management API (https://<api>.execute-api.<region>.amazonaws.com/<stage>;"
                            + " empty: no notices are sent)");

    /**
     * Not in {@link #ALL}: the stack sets it to the balancer's alias for the functions that ask for
     * standby evaluations ({@link FunctionAccess#requestsStandbyEvaluations}); the local profile runs
     * them itself.
     */
    public static final Setting STANDBY_FUNCTION =
            new Setting("GAMEFLEET_STANDBY_FUNCTION", "",
                    "the function that evaluates a group's standby buffer between balancer runs, invoked asynchronously"
                            + " (the balancer's alias ARN; empty: only the balancer's runs evaluate it)");

    /**
     * Not in {@link #ALL}: the stack derives it from the context key {@code peerRegions}, for the
     * functions that call peers ({@link FunctionAccess#callsPeers}); {@code local/run --regions}
     * sets it for each region's profile. A JSON array, one object per peer region:
     * {@code {"Region": "eu-west-1", "ApiUrl": "https://<api>.execute-api.eu-west-1.amazonaws.com",
     * "MatchmakerRoleArn": "arn:aws:iam::<account>:role/..."}}: the role is the peer's MATCHMAKER
     * role, which the calling function assumes to sign for the peer's API (absent locally, where the
     * profile gives its functions a MATCHMAKER principal of the peers').
     */
    public static final Setting PEERS =
            new Setting("GAMEFLEET_PEERS", "", "the stage's peer regions, their API URLs and MATCHMAKER roles"
                    + " (a JSON array; empty: no peers)");

    /** How long one call to a peer may take, all of it: past it the peer is skipped. */
    public static final Setting PEER_TIMEOUT_MILLIS =
            new Setting("GAMEFLEET_PEER_TIMEOUT_MILLIS", "1000", "the time budget of one call to a peer region");

    /**
     * Container groups' ECS resources ({@link #CONTAINERS}), not in {@link #ALL}: the stack derives
     * each from what it creates where it runs containers (context containers=true), for the
     * functions that create and scale container groups; the local profile sets them to its
     * simulated ECS's. Empty: the stage has none, and no container group can be created.
     */
    public static final Setting CONTAINER_CLUSTER =
            new Setting("GAMEFLEET_CONTAINER_CLUSTER", "", "the ECS cluster container groups' services run in (name or ARN)");
    public static final Setting CONTAINER_SUBNETS =
            new Setting("GAMEFLEET_CONTAINER_SUBNETS", "",
                    "comma-separated subnets of container groups' tasks where a group names no VpcSubnets");
    public static final Setting CONTAINER_SECURITY_GROUP =
            new Setting("GAMEFLEET_CONTAINER_SECURITY_GROUP", "", "the security group of container groups' tasks");
    public static final Setting AGENT_IMAGE =
            new Setting("GAMEFLEET_AGENT_IMAGE", "", "the image of the agent sidecar container added to every container task");
    /** Never the studio's: the task role is what the agent sidecar calls Gamefleet with. */
    public static final Setting TASK_ROLE_ARN =
            new Setting("GAMEFLEET_TASK_ROLE_ARN", "", "the IAM role of container groups' tasks");
    public static final Setting TASK_EXECUTION_ROLE_ARN =
            new Setting("GAMEFLEET_TASK_EXECUTION_ROLE_ARN", "",
                    "the IAM role ECS pulls container groups' images and writes their logs with");
    public static final Setting CONTAINER_LOG_GROUP =
            new Setting("GAMEFLEET_CONTAINER_LOG_GROUP", "", "the CloudWatch Logs group of container groups' containers");

    public static final List<Setting> CONTAINERS = List.of(CONTAINER_CLUSTER, CONTAINER_SUBNETS,
            CONTAINER_SECURITY_GROUP, AGENT_IMAGE, TASK_ROLE_ARN, TASK_EXECUTION_ROLE_ARN, CONTAINER_LOG_GROUP);

    /** The IAM roles whose sessions the JSON door (which API Gateway cannot authorize per operation) admits. */
    public static final Setting ADMIN_ROLE_ARN =
            new Setting("GAMEFLEET_ADMIN_ROLE_ARN", "", "the ADMIN callers' IAM role");
    public static final Setting MATCHMAKER_ROLE_ARN =
            new Setting("GAMEFLEET_MATCHMAKER_ROLE_ARN", "", "the MATCHMAKER callers' IAM role");
    public static final Setting GAME_SERVER_ROLE_ARN =
            new Setting("GAMEFLEET_GAME_SERVER_ROLE_ARN", "", "the GAME_SERVER callers' IAM role");

    /**
     * The caller roles' unique ids (RoleId): a role deleted and created again under the same name
     * is another principal, with another id, which the functions do not take for the first.
     */
    public static final Setting ADMIN_ROLE_ID =
            new Setting("GAMEFLEET_ADMIN_ROLE_ID", "", "the unique id of the ADMIN callers' IAM role");
    public static final Setting MATCHMAKER_ROLE_ID =
            new Setting("GAMEFLEET_MATCHMAKER_ROLE_ID", "", "the unique id of the MATCHMAKER callers' IAM role");
    public static final Setting GAME_SERVER_ROLE_ID =
            new Setting("GAMEFLEET_GAME_SERVER_ROLE_ID", "", "the unique id of the GAME_SERVER callers' IAM role");

    /**
     * The console viewers' IAM role ({@link ConsoleAccess}), empty where the stack serves no console:
     * the JSON door admits its sessions for a MATCHMAKER's reads alone.
     */
    public static final Setting VIEWER_ROLE_ARN =
            new Setting("GAMEFLEET_VIEWER_ROLE_ARN", "", "the console viewers' IAM role (empty: none)");
    public static final Setting VIEWER_ROLE_ID =
            new Setting("GAMEFLEET_VIEWER_ROLE_ID", "", "the unique id of the console viewers' IAM role");

    /** Whether a switch setting ({@link #CONNECTION_INFO_CHECK}) is on: {@code on} or {@code off}, nothing else. */
    public static boolean isOn(Setting setting, String value) {
        return switch (value) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new IllegalArgumentException(setting.environmentVariable() + " must be on or off, not " + value);
        };
    }

    public static Setting roleId(Role role) {
        return switch (role) {
            case ADMIN -> ADMIN_ROLE_ID;
            case MATCHMAKER -> MATCHMAKER_ROLE_ID;
            case GAME_SERVER -> GAME_SERVER_ROLE_ID;
        };
    }

    public static Setting roleArn(Role role) {
        return switch (role) {
            case ADMIN -> ADMIN_ROLE_ARN;
            case MATCHMAKER -> MATCHMAKER_ROLE_ARN;
            case GAME_SERVER -> GAME_SERVER_ROLE_ARN;
        };
    }

    public static final List<Setting> ALL = List.of(CLAIM_TTL_SECONDS, HEALTH_TIMEOUT_SECONDS,
            DELETED_RETENTION_SECONDS, ACTIVATION_TIMEOUT_SECONDS, BALANCER_RATE_SECONDS, VIABILITY_WINDOW_SECONDS,
            VIABILITY_THRESHOLD, MAX_GAME_SERVERS_PER_INSTANCE, MAX_INSTANCE_LIFETIME_HOURS,
            GUARANTEED_SERVER_LIFETIME_HOURS, CONNECTION_INFO_CHECK, EXPECTED_GAME_SERVERS,
            HEARTBEAT_SECONDS, CLAIMS_PER_SECOND, PEER_TIMEOUT_MILLIS, PAGE_TOKEN_KEY, PAGE_TOKEN_SECRET_ARN, ACCOUNT_ID, SCALING_GROUP_PREFIX, STAGE, INSTANCE_PROFILE_ARNS,
            ACTIVATION_STATE_MACHINE_ARN, DELETION_STATE_MACHINE_ARN, ADMIN_ROLE_ARN, MATCHMAKER_ROLE_ARN,
            GAME_SERVER_ROLE_ARN, ADMIN_ROLE_ID, MATCHMAKER_ROLE_ID, GAME_SERVER_ROLE_ID, VIEWER_ROLE_ARN, VIEWER_ROLE_ID);

    private Settings() {}
}
