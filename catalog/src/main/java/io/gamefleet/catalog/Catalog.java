package io.gamefleet.catalog;

import java.util.List;

/** Names shared by the functions, the CDK app and the local profile. */
public final class Catalog {
    /** Every Lambda function's name starts with this (deployed and local). */
    public static final String FUNCTION_PREFIX = "gamefleet-";
    /** CloudWatch namespace of the FleetIQ-named metrics. */
    public static final String METRICS_NAMESPACE = "Gamefleet";
    /** FleetIQ's metrics, as the balancer and the event handler publish them and the dashboard shows them. */
    public static final String AVAILABLE_GAME_SERVERS = "AvailableGameServers";
    public static final String UTILIZED_GAME_SERVERS = "UtilizedGameServers";
    public static final String DRAINING_AVAILABLE_GAME_SERVERS = "DrainingAvailableGameServers";
    public static final String DRAINING_UTILIZED_GAME_SERVERS = "DrainingUtilizedGameServers";
    /** Also what a group's target-tracking policy tracks. */
    public static final String PERCENT_UTILIZED_GAME_SERVERS = "PercentUtilizedGameServers";
    public static final String GAME_SERVER_INTERRUPTIONS = "GameServerInterruptions";
    public static final String INSTANCE_INTERRUPTIONS = "InstanceInterruptions";
    /** Published every balancer run, per GameServerGroup. */
    public static final List<String> GAME_SERVER_GAUGES = List.of(AVAILABLE_GAME_SERVERS, UTILIZED_GAME_SERVERS,
            DRAINING_AVAILABLE_GAME_SERVERS, DRAINING_UTILIZED_GAME_SERVERS, PERCENT_UTILIZED_GAME_SERVERS);
    /** Published per interruption, per GameServerGroup and InstanceType. */
    public static final List<String> INTERRUPTION_COUNTS = List.of(GAME_SERVER_INTERRUPTIONS, INSTANCE_INTERRUPTIONS);
    /**
     * Gamefleet's own gauges of what the agents report of their processes, published every balancer
     * run per GameServerGroup: the registered game servers whose process is in each PlayFab state,
     * and the players connected to them.
     */
    public static final String INITIALIZING_GAME_SERVERS = "InitializingGameServers";
    public static final String STANDING_BY_GAME_SERVERS = "StandingByGameServers";
    public static final String ACTIVE_GAME_SERVERS = "ActiveGameServers";
    public static final String TERMINATING_GAME_SERVERS = "TerminatingGameServers";
    public static final String CONNECTED_PLAYERS = "ConnectedPlayers";
    public static final List<String> PROCESS_GAUGES = List.of(INITIALIZING_GAME_SERVERS, STANDING_BY_GAME_SERVERS,
            ACTIVE_GAME_SERVERS, TERMINATING_GAME_SERVERS, CONNECTED_PLAYERS);
    /**
     * Crashed processes and start timeouts the agents report, counted as their health reports are
     * taken, per stage (what the crash-loop alarm sums) and per stage and GameServerGroup.
     */
    public static final String CRASHED_PROCESSES = "CrashedProcesses";
    public static final String START_TIMEOUTS = "StartTimeouts";
    public static final List<String> PROCESS_EVENT_COUNTS = List.of(CRASHED_PROCESSES, START_TIMEOUTS);
    /**
     * A claimed or terminate notice that reached no agent (its connection gone and none newer, or
     * the post failed), per stage and per stage and GameServerGroup: published by the functions that
     * post notices.
     */
    public static final String UNDELIVERED_NOTICES = "UndeliveredNotices";
    /**
     * The dimension {@link #UNDELIVERED_NOTICES} and {@link #PROCESS_EVENT_COUNTS} are published under
     * (alarmed on), beside GameServerGroup.
     */
    public static final String STAGE_DIMENSION = "Stage";
    /** Tag put on every Auto Scaling group and instance Gamefleet manages; IAM conditions key on it. */
    public static final String MANAGED_TAG_KEY = "gamefleet:game-server-group";
    /**
     * Tag put beside it with the stage ({@link Settings#STAGE}): IAM conditions every Auto Scaling
     * statement on it, and the compute adapter changes only groups carrying its own stage, so one
     * stage never reaches another's groups, whatever their names.
     */
    public static final String STAGE_TAG_KEY = "gamefleet:stage";
    /**
     * Tags a container group's ECS service holds its sizes in: a service has a desired count only,
     * which Gamefleet keeps within them.
     */
    public static final String MIN_SIZE_TAG_KEY = "gamefleet:min-size";
    public static final String MAX_SIZE_TAG_KEY = "gamefleet:max-size";

    /**
     * What a stage's Auto Scaling groups' names start with, {@code gamefleet-<stage>_}, the game server
     * group's name after it. Neither a stage's name (lower-case letters, digits, hyphens) nor a group's
     * (letters, digits, hyphens, dots) has an underscore, so no two pairs of them make one name: with a
     * hyphen there, stage prod's group eu-arena and stage prod-eu's arena were both
     * {@code gamefleet-prod-eu-arena}.
     */
    public static String scalingGroupPrefix(String stage) {
        return FUNCTION_PREFIX + stage + "_";
    }

    /**
     * What a stage's Auto Scaling groups' names started with before {@link #scalingGroupPrefix}: groups
     * created then keep their names, and the stage still manages them (its stage tag tells them apart).
     */
    public static String formerScalingGroupPrefix(String stage) {
        return FUNCTION_PREFIX + stage + "-";
    }

    private Catalog() {}
}
