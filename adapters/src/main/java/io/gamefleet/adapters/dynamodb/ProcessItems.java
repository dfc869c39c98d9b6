package io.gamefleet.adapters.dynamodb;

import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerProcess;
import io.gamefleet.domain.GameServerRepository.ReportedProcess;
import io.gamefleet.domain.ProcessReport;
import io.gamefleet.domain.ProcessState;
import io.gamefleet.domain.ProcessSummary;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What the agents report of their game servers' processes, in GameServers:
 * <ul>
 * <li>on the server's item, a summary ({@link #summary}: the state and player count, which the
 *     balancer counts from the items it reads anyway, the named ports, which a session's answer
 *     gives from the server it claims or reads anyway, and the report's digest, which tells a health
 *     report whether it changes anything), written with the server's lease, in no index;</li>
 * <li>the whole report, an item of its own, {@code #process#<gameServerId>} (no game server id can
 *     take it: {@code #} is outside the id pattern), in no index either: written only when the
 *     report changed, with the registration time of the server it is for (a later server of the
 *     same id is another), and kept until the report's {@code keepUntil} (TTL: a day past its
 *     instance's end), past its server: nothing deletes it with the server, so a deregistration
 *     costs no write more.</li>
 * </ul>
 * Player ids (up to 100 of 128 characters) stay off the server's item, so that every claim and
 * update of it keeps costing what it did.
 */
final class ProcessItems {
    static final String ID_PREFIX = "#process#";
    static final String STATE = "ProcessState";
    static final String CONNECTED_PLAYERS = "ConnectedPlayers";
    static final String DIGEST = "ProcessDigest";
    static final String PORTS = "ProcessPorts";

    private final DynamoDbClient dynamoDb;
    private final String tableName;

    ProcessItems(DynamoDbClient dynamoDb, String tableName) {
        this.dynamoDb = dynamoDb;
        this.tableName = tableName;
    }

    /** The summary's attributes on the server's item (the state absent before its first heartbeat). */
    static Map<String, AttributeValue> summary(ProcessSummary summary) {
        Map<String, AttributeValue> item = new HashMap<>();
        if (summary.state() != null) {
            item.put(STATE, AttributeValue.fromS(summary.state().name()));
        }
        item.put(CONNECTED_PLAYERS, AttributeValue.fromN(Integer.toString(summary.connectedPlayers())));
        item.put(DIGEST, AttributeValue.fromS(summary.digest()));
        if (!summary.ports().isEmpty()) {
            item.put(PORTS, ports(summary.ports()));
        }
        return item;
    }

    /** Name to port, as a map of numbers. */
    private static AttributeValue ports(Map<String, Integer> ports) {
        Map<String, AttributeValue> m = new HashMap<>();
        ports.forEach((name, port) -> m.put(name, AttributeValue.fromN(Integer.toString(port))));
        return AttributeValue.fromM(m);
    }

    private static Map<String, Integer> ports(AttributeValue ports) {
        Map<String, Integer> m = new HashMap<>();
        if (ports != null) {
            ports.m().forEach((name, port) -> m.put(name, Integer.valueOf(port.n())));
        }
        return m;
    }

    /** The summary a server's item holds, or null when its agent reported none. */
    static ProcessSummary summary(Map<String, AttributeValue> item) {
        AttributeValue digest = item.get(DIGEST);
        if (digest == null) {
            return null;
        }
        AttributeValue state = item.get(STATE);
        return new ProcessSummary(state == null ? null : ProcessState.valueOf(state.s()),
                Integer.parseInt(item.get(CONNECTED_PLAYERS).n()), ports(item.get(PORTS)), digest.s());
    }

    /**
     * The part of a server's UpdateItem that writes the summary: SET and REMOVE clauses on
     * {@code values}' placeholders.
     */
    static String summaryUpdate(ProcessSummary summary, Map<String, AttributeValue> values, List<String> removes) {
        values.put(":processPlayers", AttributeValue.fromN(Integer.toString(summary.connectedPlayers())));
        values.put(":processDigest", AttributeValue.fromS(summary.digest()));
        String sets = CONNECTED_PLAYERS + " = :processPlayers, " + DIGEST + " = :processDigest";
        if (summary.ports().isEmpty()) {
            removes.add(PORTS);
        } else {
            values.put(":processPorts", ports(summary.ports()));
            sets += ", " + PORTS + " = :processPorts";
        }
        if (summary.state() == null) {
            removes.add(STATE);
            return sets;
        }
        values.put(":processState", AttributeValue.fromS(summary.state().name()));
        return sets + ", " + STATE + " = :processState";
    }

    /** The whole report, put as the server's process item (one write, by its size: a write unit per KB). */
    void put(String group, String gameServerId, String instanceId, ReportedProcess reported) {
        ProcessReport p = reported.report();
        Map<String, AttributeValue> item = new HashMap<>(GameServerSchema.key(ID_PREFIX + gameServerId));
        item.put("GameServerGroupName", AttributeValue.fromS(group));
        item.put("ProcessOf", AttributeValue.fromS(gameServerId));
        // Not "InstanceId": that would put the item into the ByInstance index among the instance's servers.
        item.put("ProcessInstanceId", AttributeValue.fromS(instanceId));
        item.put("ServerRegistrationTime", GameServerSchema.number(reported.registrationTime()));
        if (p.state() != null) {
            item.put("State", AttributeValue.fromS(p.state().name()));
        }
        item.put("ConnectedPlayers", AttributeValue.fromN(Integer.toString(p.connectedPlayers())));
        if (!p.playerIds().isEmpty()) {
            item.put("PlayerIds", AttributeValue.fromL(p.playerIds().stream().map(AttributeValue::fromS).toList()));
        }
        item.put("Crashes", AttributeValue.fromN(Integer.toString(p.crashes())));
        item.put("StartTimeouts", AttributeValue.fromN(Integer.toString(p.startTimeouts())));
        if (p.lastExitCode() != null) {
            item.put("LastExitCode", AttributeValue.fromN(Integer.toString(p.lastExitCode())));
        }
        if (!p.ports().isEmpty()) {
            item.put("Ports", ports(p.ports()));
        }
        item.put("ReportedAt", GameServerSchema.number(reported.at()));
        // TTL takes epoch seconds.
        item.put("ExpiresAt", AttributeValue.fromN(Long.toString(reported.keepUntil().getEpochSecond())));
        dynamoDb.putItem(r -> r.tableName(tableName).item(item));
    }

    /** The process item of this very server: one GetItem; empty when there is none, or it is an earlier server's. */
    Optional<GameServerProcess> find(GameServer server) {
        var response = dynamoDb.getItem(r -> r.tableName(tableName).key(GameServerSchema.key(ID_PREFIX + server.gameServerId()))
                .consistentRead(true));
        if (!response.hasItem() || response.item().isEmpty()) {
            return Optional.empty();
        }
        Map<String, AttributeValue> item = response.item();
        if (!GameServerSchema.number(server.registrationTime()).equals(item.get("ServerRegistrationTime"))) {
            return Optional.empty();
        }
        AttributeValue state = item.get("State");
        AttributeValue exit = item.get("LastExitCode");
        AttributeValue players = item.get("PlayerIds");
        ProcessReport report = new ProcessReport(state == null ? null : ProcessState.valueOf(state.s()),
                Integer.parseInt(item.get("ConnectedPlayers").n()),
                players == null ? List.of() : players.l().stream().map(AttributeValue::s).toList(),
                Integer.parseInt(item.get("Crashes").n()), Integer.parseInt(item.get("StartTimeouts").n()),
                exit == null ? null : Integer.valueOf(exit.n()), ports(item.get("Ports")));
        return Optional.of(new GameServerProcess(item.get("GameServerGroupName").s(), server.gameServerId(),
                item.get("ProcessInstanceId").s(), report, Instant.ofEpochMilli(Long.parseLong(item.get("ReportedAt").n()))));
    }
}
