package io.gamefleet.local;

import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.Compute;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.InstanceDefinition;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The local stand-in for EC2 Auto Scaling: scaling groups and their instances, in memory.
 * An instance is InService once {@code launchDelay} has passed on the profile's clock, so
 * tests move the clock instead of waiting. Instance types rotate through the group's
 * definitions, and each instance gets an EC2-shaped id ({@code i-} and 17 hex digits).
 */
public final class SimulatedFleet implements Compute {
    private static final String HEX = "0123456789abcdef";
    private static final List<String> ZONES = List.of("us-east-1a", "us-east-1b", "us-east-1c");

    private final Clock clock;
    private final Duration launchDelay;
    private final String accountId;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, ScalingGroup> groups = new ConcurrentHashMap<>();
    private volatile Optional<String> refusal = Optional.empty();

    public SimulatedFleet(Clock clock, Duration launchDelay, String accountId) {
        this.clock = clock;
        this.launchDelay = launchDelay;
        this.accountId = accountId;
    }

    private static final class ScalingGroup {
        final String name;
        final String arn;
        List<InstanceDefinition> definitions;
        int desired;
        final int max;
        final Map<String, SimulatedInstance> instances = new LinkedHashMap<>();
        int launched;

        ScalingGroup(String name, String arn, List<InstanceDefinition> definitions, int desired, int max) {
            this.name = name;
            this.arn = arn;
            this.definitions = definitions;
            this.desired = desired;
            this.max = max;
        }
    }

    private record SimulatedInstance(String id, String type, String zone, Instant launchTime, boolean protectedFromScaleIn) {
        SimulatedInstance withProtection(boolean p) {
            return new SimulatedInstance(id, type, zone, launchTime, p);
        }
    }

    /** From now on, creating a scaling group fails with this reason (as a misconfigured template would). */
    public void refuseScalingGroups(String reason) {
        refusal = Optional.of(reason);
    }

    public void acceptScalingGroups() {
        refusal = Optional.empty();
    }

    @Override
    public String createScalingGroup(GameServerGroup group) {
        String name = group.autoScalingGroupName();
        ScalingGroup existing = groups.get(name);
        if (existing != null) {
            return existing.arn;
        }
        refusal.ifPresent(reason -> {
            throw new ComputeException("Auto Scaling refused to create " + name + ": " + reason, false, null);
        });
        String arn = "arn:aws:autoscaling:us-east-1:" + accountId + ":autoScalingGroup:"
                + java.util.UUID.nameUUIDFromBytes(name.getBytes()) + ":autoScalingGroupName/" + name;
        int desired = Math.min(Math.max(group.minSize(), 1), group.maxSize());
        ScalingGroup created = new ScalingGroup(name, arn, group.instanceDefinitions(), desired, group.maxSize());
        synchronized (created) {
            fill(created);
        }
        groups.put(name, created);
        return arn;
    }

    @Override
    public List<ComputeInstance> describeInstances(String scalingGroupName) {
        ScalingGroup g = groups.get(scalingGroupName);
        if (g == null) {
            return List.of();
        }
        Instant now = clock.instant();
        synchronized (g) {
            List<ComputeInstance> out = new ArrayList<>();
            for (SimulatedInstance i : g.instances.values()) {
                out.add(new ComputeInstance(i.id(), i.type(), i.zone(), i.launchTime(),
                        !now.isBefore(i.launchTime().plus(launchDelay)), i.protectedFromScaleIn()));
            }
            return out;
        }
    }

    @Override
    public boolean deleteScalingGroup(String scalingGroupName, boolean force) {
        ScalingGroup g = groups.get(scalingGroupName);
        if (g == null) {
            return true;
        }
        synchronized (g) {
            g.desired = 0;
            g.instances.values().removeIf(i -> force || !i.protectedFromScaleIn());
            if (g.instances.isEmpty()) {
                groups.remove(scalingGroupName);
                return true;
            }
            return false;
        }
    }

    @Override
    public void setInstanceTypes(String scalingGroupName, List<InstanceDefinition> definitions, BalancingStrategy strategy) {
        ScalingGroup g = require(scalingGroupName);
        synchronized (g) {
            g.definitions = List.copyOf(definitions);
        }
    }

    @Override
    public void setDesiredCapacity(String scalingGroupName, int desiredCapacity) {
        ScalingGroup g = require(scalingGroupName);
        synchronized (g) {
            g.desired = Math.min(desiredCapacity, g.max);
            fill(g);
        }
    }

    @Override
    public void setInstanceProtection(String scalingGroupName, String instanceId, boolean protectedFromScaleIn) {
        ScalingGroup g = require(scalingGroupName);
        synchronized (g) {
            g.instances.computeIfPresent(instanceId, (id, i) -> i.withProtection(protectedFromScaleIn));
        }
    }

    @Override
    public void terminateInstance(String scalingGroupName, String instanceId, boolean decrementDesiredCapacity) {
        ScalingGroup g = require(scalingGroupName);
        synchronized (g) {
            if (g.instances.remove(instanceId) != null && decrementDesiredCapacity) {
                g.desired = Math.max(0, g.desired - 1);
            }
            fill(g);
        }
    }

    private ScalingGroup require(String name) {
        ScalingGroup g = groups.get(name);
        if (g == null) {
            throw new ComputeException("Auto Scaling group " + name + " does not exist", false, null);
        }
        return g;
    }

    /** Launches instances until the group has its desired capacity (caller holds the group's lock). */
    private void fill(ScalingGroup g) {
        while (g.instances.size() < g.desired && !g.definitions.isEmpty()) {
            InstanceDefinition type = g.definitions.get(g.launched % g.definitions.size());
            String id = newInstanceId();
            g.instances.put(id, new SimulatedInstance(id, type.instanceType(), ZONES.get(g.launched % ZONES.size()),
                    clock.instant(), false));
            g.launched++;
        }
    }

    private String newInstanceId() {
        StringBuilder id = new StringBuilder("i-");
        for (int i = 0; i < 17; i++) {
            id.append(HEX.charAt(random.nextInt(HEX.length())));
        }
        return id.toString();
    }
}
