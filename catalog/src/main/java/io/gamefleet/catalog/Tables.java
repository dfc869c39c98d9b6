package io.gamefleet.catalog;

import static io.gamefleet.catalog.KeyAttribute.number;
import static io.gamefleet.catalog.KeyAttribute.string;

import java.util.List;
import java.util.Optional;

/**
 * The table definitions, once, for the CDK app, the local profile and the tests. The access
 * patterns each key and index serves are written next to the item schemas in io.gamefleet.adapters.dynamodb.
 */
public final class Tables {
    public static final String GROUPS_BY_CREATION_INDEX = "ByCreationTime";
    public static final String SERVERS_BY_GROUP_INDEX = "ByGroupRegistration";
    public static final String CLAIMABLE_INDEX = "Claimable";
    public static final String SERVERS_BY_INSTANCE_INDEX = "ByInstance";
    public static final String INSTANCES_BY_ID_INDEX = "ByInstanceId";

    public static final TableDefinition GAME_SERVER_GROUPS = new TableDefinition(
            "GameServerGroups", "GAMEFLEET_GROUPS_TABLE",
            string("GameServerGroupName"), Optional.empty(),
            List.of(new IndexDefinition(GROUPS_BY_CREATION_INDEX, string("ListPartition"), string("ListSortKey"))),
            Optional.of("ExpiresAt"));

    public static final TableDefinition GAME_SERVERS = new TableDefinition(
            "GameServers", "GAMEFLEET_GAME_SERVERS_TABLE",
            string("GameServerId"), Optional.empty(),
            List.of(
                    new IndexDefinition(SERVERS_BY_GROUP_INDEX, string("GameServerGroupName"), number("RegistrationTime")),
                    new IndexDefinition(CLAIMABLE_INDEX, string("ClaimPartition"), string("ClaimSortKey")),
                    new IndexDefinition(SERVERS_BY_INSTANCE_INDEX, string("InstanceId"), string("GameServerId"))),
            Optional.empty());

    public static final TableDefinition GAME_SERVER_INSTANCES = new TableDefinition(
            "GameServerInstances", "GAMEFLEET_INSTANCES_TABLE",
            string("GameServerGroupName"), Optional.of(string("InstanceId")),
            List.of(new IndexDefinition(INSTANCES_BY_ID_INDEX, string("InstanceId"), string("GameServerGroupName"))),
            Optional.empty());

    public static final TableDefinition SPOT_INTERRUPTIONS = new TableDefinition(
            "SpotInterruptions", "GAMEFLEET_SPOT_INTERRUPTIONS_TABLE",
            string("GameServerGroupName"), Optional.of(string("InterruptionKey")),
            List.of(),
            Optional.of("ExpiresAt"));

    public static final List<TableDefinition> ALL =
            List.of(GAME_SERVER_GROUPS, GAME_SERVERS, GAME_SERVER_INSTANCES, SPOT_INTERRUPTIONS);

    private Tables() {}
}
