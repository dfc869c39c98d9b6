package io.gamefleet.adapters.dynamodb;

import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.StandbyPolicy;
import io.gamefleet.domain.StandbyPolicy.Buffer;
import io.gamefleet.domain.StandbyPolicy.DynamicTier;
import io.gamefleet.domain.StandbyPolicy.Window;
import io.gamefleet.domain.StandbyRepository;
import io.gamefleet.domain.StandbyState;
import io.gamefleet.domain.StandbyState.Evaluation;
import io.gamefleet.domain.StandbyState.HeldTier;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * Standby policies in GameServerGroups, an item each beside its group's, keyed
 * {@code #standby#<group>} ({@code #} is outside the group name pattern, and the item has no
 * {@code ListPartition}, so no listing of groups shows it). The policy and the evaluations' state
 * are maps of their own: a put replaces both, and an evaluation writes its state only while the
 * policy's {@code Revision} is the one it read.
 */
public final class DynamoStandbyRepository implements StandbyRepository {
    static final String KEY_PREFIX = "#standby#";

    private final DynamoDbClient dynamoDb;
    private final String tableName;

    public DynamoStandbyRepository(DynamoDbClient dynamoDb, TableNames names) {
        this.dynamoDb = dynamoDb;
        this.tableName = names.of(Tables.GAME_SERVER_GROUPS);
    }

    @Override
    public Optional<Standby> find(String group) {
        var response = dynamoDb.getItem(r -> r.tableName(tableName).key(key(group)).consistentRead(true));
        if (!response.hasItem() || response.item().isEmpty()) {
            return Optional.empty();
        }
        Map<String, AttributeValue> item = response.item();
        return Optional.of(new Standby(millis(item.get("GroupCreationTime")), item.get("Revision").s(),
                policy(item.get("Policy").m()), state(item.get("State").m())));
    }

    @Override
    public void put(String group, Standby standby) {
        Map<String, AttributeValue> item = new HashMap<>(key(group));
        item.put("GroupCreationTime", number(standby.groupCreationTime()));
        item.put("Revision", AttributeValue.fromS(standby.revision()));
        item.put("Policy", AttributeValue.fromM(policy(standby.policy())));
        item.put("State", AttributeValue.fromM(state(standby.state())));
        dynamoDb.putItem(r -> r.tableName(tableName).item(item));
    }

    @Override
    public boolean saveState(String group, String revision, StandbyState state) {
        return setUnderRevision(group, revision, "#state", AttributeValue.fromM(state(state)));
    }

    @Override
    public boolean saveEvaluation(String group, String revision, Evaluation evaluation) {
        return setUnderRevision(group, revision, "#state.LastEvaluation", AttributeValue.fromM(evaluation(evaluation)));
    }

    /** One conditional UpdateItem of the state, or a member of it: false when another put came meanwhile. */
    private boolean setUnderRevision(String group, String revision, String path, AttributeValue value) {
        try {
            dynamoDb.updateItem(r -> r.tableName(tableName).key(key(group))
                    .updateExpression("SET " + path + " = :value")
                    .conditionExpression("Revision = :revision")
                    .expressionAttributeNames(Map.of("#state", "State"))
                    .expressionAttributeValues(Map.of(":value", value, ":revision", AttributeValue.fromS(revision))));
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    private static Map<String, AttributeValue> key(String group) {
        return Map.of("GameServerGroupName", AttributeValue.fromS(KEY_PREFIX + group));
    }

    static Map<String, AttributeValue> policy(StandbyPolicy p) {
        Map<String, AttributeValue> m = new HashMap<>(buffer(p.buffer()));
        m.put("Dynamic", AttributeValue.fromL(p.dynamic().stream().map(t -> AttributeValue.fromM(Map.of(
                "BelowPercent", decimal(t.belowPercent()), "Multiplier", decimal(t.multiplier())))).toList()));
        m.put("RampDownSeconds", AttributeValue.fromN(Long.toString(p.rampDown().toSeconds())));
        m.put("Schedule", AttributeValue.fromL(p.schedule().stream().map(w -> {
            Map<String, AttributeValue> window = new HashMap<>(buffer(w.buffer()));
            window.put("Start", number(w.start()));
            window.put("End", number(w.end()));
            return AttributeValue.fromM(window);
        }).toList()));
        m.put("ScaleInCooldownSeconds", AttributeValue.fromN(Long.toString(p.scaleInCooldown().toSeconds())));
        return m;
    }

    static StandbyPolicy policy(Map<String, AttributeValue> m) {
        List<DynamicTier> tiers = m.get("Dynamic").l().stream().map(AttributeValue::m)
                .map(t -> new DynamicTier(Double.parseDouble(t.get("BelowPercent").n()),
                        Double.parseDouble(t.get("Multiplier").n())))
                .toList();
        List<Window> schedule = m.get("Schedule").l().stream().map(AttributeValue::m)
                .map(w -> new Window(millis(w.get("Start")), millis(w.get("End")), buffer(w)))
                .toList();
        return new StandbyPolicy(buffer(m), tiers, seconds(m.get("RampDownSeconds")), schedule,
                seconds(m.get("ScaleInCooldownSeconds")));
    }

    private static Map<String, AttributeValue> buffer(Buffer b) {
        return Map.of("StandingBy", AttributeValue.fromN(Integer.toString(b.value())),
                "StandingByPercent", AttributeValue.fromBool(b.percent()));
    }

    private static Buffer buffer(Map<String, AttributeValue> m) {
        return new Buffer(Integer.parseInt(m.get("StandingBy").n()), m.get("StandingByPercent").bool());
    }

    static Map<String, AttributeValue> state(StandbyState s) {
        Map<String, AttributeValue> m = new HashMap<>();
        s.surplusSince().ifPresent(t -> m.put("SurplusSince", number(t)));
        s.heldTier().ifPresent(h -> {
            m.put("HeldMultiplier", decimal(h.multiplier()));
            m.put("HeldUntil", number(h.until()));
        });
        s.lastEvaluation().ifPresent(e -> m.put("LastEvaluation", AttributeValue.fromM(evaluation(e))));
        m.put("TargetTrackingScaleInOff", AttributeValue.fromBool(s.targetTrackingScaleInOff()));
        return m;
    }

    private static Map<String, AttributeValue> evaluation(Evaluation e) {
        return Map.of(
                "At", number(e.at()),
                "Target", AttributeValue.fromN(Long.toString(e.target())),
                "StandingBy", AttributeValue.fromN(Long.toString(e.standingBy())),
                "InUse", AttributeValue.fromN(Long.toString(e.inUse())),
                "ServersPerInstance", AttributeValue.fromN(Integer.toString(e.serversPerInstance())),
                "DesiredCapacity", AttributeValue.fromN(Integer.toString(e.desiredCapacity())),
                "Multiplier", decimal(e.multiplier()));
    }

    static StandbyState state(Map<String, AttributeValue> m) {
        Optional<HeldTier> held = m.containsKey("HeldUntil")
                ? Optional.of(new HeldTier(Double.parseDouble(m.get("HeldMultiplier").n()), millis(m.get("HeldUntil"))))
                : Optional.empty();
        Optional<Evaluation> evaluation = Optional.ofNullable(m.get("LastEvaluation")).map(AttributeValue::m)
                .map(e -> new Evaluation(millis(e.get("At")), Long.parseLong(e.get("Target").n()),
                        Long.parseLong(e.get("StandingBy").n()), Long.parseLong(e.get("InUse").n()),
                        Integer.parseInt(e.get("ServersPerInstance").n()), Integer.parseInt(e.get("DesiredCapacity").n()),
                        Double.parseDouble(e.get("Multiplier").n())));
        return new StandbyState(Optional.ofNullable(m.get("SurplusSince")).map(DynamoStandbyRepository::millis), held,
                evaluation, m.get("TargetTrackingScaleInOff").bool());
    }

    private static AttributeValue number(Instant t) {
        return AttributeValue.fromN(Long.toString(t.toEpochMilli()));
    }

    private static AttributeValue decimal(double d) {
        return AttributeValue.fromN(Double.toString(d));
    }

    private static Instant millis(AttributeValue v) {
        return Instant.ofEpochMilli(Long.parseLong(v.n()));
    }

    private static Duration seconds(AttributeValue v) {
        return Duration.ofSeconds(Long.parseLong(v.n()));
    }
}
