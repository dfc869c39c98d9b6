package io.gamefleet.domain.fakes;

import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.InstanceRepository;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.Page;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The GameServerInstances table in memory, as DynamoInstanceRepository shows it through the port:
 * keyed by group and instance id, listed in id order; an id alone finds the record of the group
 * whose name sorts first.
 */
public final class InMemoryInstanceRepository implements InstanceRepository {
    /** Group name, then instance id: both in key order. */
    private final TreeMap<String, TreeMap<String, GameServerInstance>> instances = new TreeMap<>();

    @Override
    public synchronized Optional<GameServerInstance> find(String group, String instanceId) {
        return Optional.ofNullable(instances.getOrDefault(group, new TreeMap<>()).get(instanceId));
    }

    /** The records of the group among these ids, in id order; duplicates count once. No ids is refused. */
    @Override
    public synchronized List<GameServerInstance> findAll(String group, List<String> instanceIds) {
        if (instanceIds.isEmpty()) {
            throw new IllegalArgumentException("BatchGetItem needs at least one key");
        }
        return instanceIds.stream().distinct().map(id -> find(group, id)).flatMap(Optional::stream)
                .sorted(Comparator.comparing(GameServerInstance::instanceId)).toList();
    }

    @Override
    public synchronized Page<GameServerInstance> list(String group, int limit, Optional<String> cursor) {
        return Storage.page(listAll(group), GameServerInstance::instanceId, true, limit, cursor);
    }

    @Override
    public synchronized List<GameServerInstance> listAll(String group) {
        return List.copyOf(instances.getOrDefault(group, new TreeMap<>()).values());
    }

    @Override
    public synchronized Optional<GameServerInstance> findById(String instanceId) {
        return instances.values().stream().map(byId -> byId.get(instanceId)).filter(i -> i != null).findFirst();
    }

    @Override
    public synchronized void save(GameServerInstance instance) {
        instances.computeIfAbsent(instance.gameServerGroupName(), g -> new TreeMap<>())
                .put(instance.instanceId(), stored(instance));
    }

    @Override
    public synchronized void addIfAbsent(GameServerInstance instance) {
        if (find(instance.gameServerGroupName(), instance.instanceId()).isEmpty()) {
            save(instance);
        }
    }

    @Override
    public synchronized boolean changeStatus(String group, String instanceId, InstanceStatus from, InstanceStatus to,
            boolean replacementRequested) {
        Optional<GameServerInstance> current = find(group, instanceId).filter(i -> i.instanceStatus() == from);
        current.ifPresent(i -> save(new GameServerInstance(group, instanceId, to, i.instanceType(),
                i.availabilityZone(), i.launchTime(), replacementRequested, i.pushConnectionId(), i.pushConnectedAt(),
                i.addresses(), i.qosPort())));
        return current.isPresent();
    }

    @Override
    public synchronized boolean setReplacementRequested(String group, String instanceId, boolean requested) {
        Optional<GameServerInstance> current = find(group, instanceId).filter(i -> i.replacementRequested() != requested);
        current.ifPresent(i -> save(new GameServerInstance(group, instanceId, i.instanceStatus(), i.instanceType(),
                i.availabilityZone(), i.launchTime(), requested, i.pushConnectionId(), i.pushConnectedAt(), i.addresses(),
                i.qosPort())));
        return current.isPresent();
    }

    @Override
    public synchronized boolean recordPushConnection(String group, String instanceId, String connectionId,
            Instant connectedAt, OptionalInt qosPort) {
        Optional<GameServerInstance> current = find(group, instanceId);
        current.ifPresent(i -> save(i.withPushConnection(connectionId, Storage.millis(connectedAt),
                qosPort.isPresent() ? qosPort.getAsInt() : null)));
        return current.isPresent();
    }

    @Override
    public synchronized boolean clearPushConnection(String group, String instanceId, String connectionId) {
        Optional<GameServerInstance> current = find(group, instanceId).filter(i -> connectionId.equals(i.pushConnectionId()));
        current.ifPresent(i -> save(i.withPushConnection(null, null, null)));
        return current.isPresent();
    }

    @Override
    public synchronized Optional<GameServerInstance> findByPushConnection(String connectionId) {
        return instances.values().stream().flatMap(byId -> byId.values().stream())
                .filter(i -> connectionId.equals(i.pushConnectionId())).findFirst();
    }

    @Override
    public synchronized void delete(String group, String instanceId) {
        Map<String, GameServerInstance> byId = instances.get(group);
        if (byId != null) {
            byId.remove(instanceId);
            if (byId.isEmpty()) {
                instances.remove(group);
            }
        }
    }

    @Override
    public synchronized List<String> deleteSome(String group, int max) {
        List<GameServerInstance> batch = list(group, max, Optional.empty()).items();
        batch.forEach(i -> delete(group, i.instanceId()));
        return batch.stream().map(GameServerInstance::instanceId).toList();
    }

    /** As DynamoDB keeps it: the launch time in milliseconds. */
    private static GameServerInstance stored(GameServerInstance i) {
        return new GameServerInstance(i.gameServerGroupName(), i.instanceId(), i.instanceStatus(), i.instanceType(),
                i.availabilityZone(), Storage.millis(i.launchTime()), i.replacementRequested(), i.pushConnectionId(),
                Storage.millis(i.pushConnectedAt()), i.addresses(), i.qosPort());
    }
}
