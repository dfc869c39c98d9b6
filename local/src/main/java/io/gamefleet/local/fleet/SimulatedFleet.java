package io.gamefleet.local.fleet;

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
import java.util.function.Consumer;

/**
 * The local stand-in for EC2 Auto Scaling: scaling groups and their instances, in memory.
 * An instance is InService once {@code launchDelay} has passed on the profile's clock, so
 * tests move the clock instead of waiting. Instance types rotate through the group's current
 * instance types, and each instance gets an EC2-shaped id ({@code i-} and 17 hex digits).
 *
 * <p>Spot interruptions: {@link #interrupt} (or a configured rate per instance type, applied by
 * {@link #tick}) sends EC2's "Spot Instance Interruption Warning" event, and two minutes later
 * on the clock the instance terminates with a "terminated" state-change event; the scaling group
 * then drops it and launches instances up to its desired capacity. With an AutoScalingPolicy the group follows target tracking on
 * PercentUtilizedGameServers, from the metrics the balancer publishes (scaling in only while its
 * scale-in is on).
 *
 * <p>The stage's maximum instance lifetime is every scaling group's MaxInstanceLifetime, as Auto
 * Scaling has it: {@link #tick} ends an instance at its launch time plus that, with a terminated
 * event, and the group launches another (desired capacity kept), but an instance protected from
 * scale-in is passed over, as Auto Scaling passes it over (the balancer ends it). Unlike Auto
 * Scaling, which takes no lifetime under a day, any lifetime is taken, so that minutes can be watched.
 */
public final class SimulatedFleet implements Compute {
    private static final String HEX = "0123456789abcdef";

    private final Clock clock;
    private final Duration launchDelay;
    private final Duration maxInstanceLifetime;
    private final String region;
    private final String accountId;
    /** The region's availability zones, its instances launched in each in turn. */
    private final List<String> zones;
    private final SecureRandom random = new SecureRandom();
    static final Duration INTERRUPTION_NOTICE = Duration.ofMinutes(2);

    private final Map<String, ScalingGroup> groups = new ConcurrentHashMap<>();
    private final Map<String, Double> interruptionsPerHour = new ConcurrentHashMap<>();
    private final Map<String, Instant> pendingTerminations = new ConcurrentHashMap<>();
    private volatile Optional<String> refusal = Optional.empty();
    private volatile Consumer<Map<String, Object>> events = e -> { };
    private Instant lastTick;

    /**
     * The fleet of {@code accountId} in {@code region} (its ARNs, zones and events name them);
     * {@code maxInstanceLifetime}: the scaling groups' MaxInstanceLifetime (zero: none).
     */
    public SimulatedFleet(Clock clock, Duration launchDelay, String region, String accountId,
            Duration maxInstanceLifetime) {
        this.clock = clock;
        this.launchDelay = launchDelay;
        this.maxInstanceLifetime = maxInstanceLifetime;
        this.region = region;
        this.accountId = accountId;
        this.zones = List.of(region + "a", region + "b", region + "c");
        this.lastTick = clock.instant();
    }

    /** Where the fleet's EC2 events go (the local event router). */
    public void sendEventsTo(Consumer<Map<String, Object>> sink) {
        this.events = sink;
    }

    /** Spot interruption warnings per instance-hour for instances of one type. */
    public void setInterruptionRate(String instanceType, double perHour) {
        interruptionsPerHour.put(instanceType, perHour);
    }

    private static final class ScalingGroup {
        final String name;
        final String arn;
        final GameServerGroup group;
        List<InstanceDefinition> definitions;
        boolean onDemandOnly;
        /** Whether target tracking may scale in (a standby buffer turns it off). */
        boolean policyScalesIn = true;
        int desired;
        final int min;
        final int max;
        final Map<String, SimulatedInstance> instances = new LinkedHashMap<>();
        int launched;

        ScalingGroup(String name, String arn, GameServerGroup group, int desired) {
            this.name = name;
            this.arn = arn;
            this.group = group;
            this.definitions = group.instanceDefinitions();
            this.onDemandOnly = group.balancingStrategy() == BalancingStrategy.ON_DEMAND_ONLY;
            this.desired = desired;
            this.min = group.minSize();
            this.max = group.maxSize();
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
        String arn = "arn:aws:autoscaling:" + region + ":" + accountId + ":autoScalingGroup:"
                + java.util.UUID.nameUUIDFromBytes(name.getBytes()) + ":autoScalingGroupName/" + name;
        int desired = Math.min(Math.max(group.minSize(), 1), group.maxSize());
        ScalingGroup created = new ScalingGroup(name, arn, group, desired);
        synchronized (created) {
            fill(created);
        }
        groups.put(name, created);
        return arn;
    }

    @Override
    public Optional<ScalingGroupState> describeScalingGroup(String scalingGroupName) {
        ScalingGroup g = groups.get(scalingGroupName);
        if (g == null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        synchronized (g) {
            List<ComputeInstance> out = new ArrayList<>();
            for (SimulatedInstance i : g.instances.values()) {
                out.add(new ComputeInstance(i.id(), i.type(), i.zone(),
                        !now.isBefore(i.launchTime().plus(launchDelay)), i.protectedFromScaleIn()));
            }
            return Optional.of(new ScalingGroupState(g.desired, g.min, g.max, g.definitions, g.onDemandOnly, out));
        }
    }

    /**
     * A simulated instance's own addresses: its game servers listen on this machine, so a
     * ConnectionInfo names 127.0.0.1 or localhost (what its metadata service gives as
     * local-ipv4 and public-ipv4, {@link InstanceMetadata}).
     */
    public static final List<String> ADDRESSES = List.of("127.0.0.1", "localhost");

    /** What EC2 says of the instances: when each launched, and {@link #ADDRESSES}. */
    @Override
    public Map<String, LaunchedInstance> launched(String scalingGroupName,
            java.util.Collection<String> instanceIds) {
        Map<String, LaunchedInstance> found = new LinkedHashMap<>();
        for (ScalingGroup g : groups.values()) {
            synchronized (g) {
                for (String id : instanceIds) {
                    SimulatedInstance i = g.instances.get(id);
                    if (i != null) {
                        found.put(id, new LaunchedInstance(i.launchTime(), ADDRESSES));
                    }
                }
            }
        }
        return found;
    }

    /** What the instance's metadata service tells of it: EC2's facts, and its interruption's end if warned. */
    public record InstanceFacts(String instanceId, String instanceType, String availabilityZone,
            Optional<Instant> terminationTime) {}

    /** The instance, if a scaling group of the fleet has it. */
    public Optional<InstanceFacts> instance(String instanceId) {
        for (ScalingGroup g : groups.values()) {
            synchronized (g) {
                SimulatedInstance i = g.instances.get(instanceId);
                if (i != null) {
                    return Optional.of(new InstanceFacts(i.id(), i.type(), i.zone(),
                            Optional.ofNullable(pendingTerminations.get(instanceId))));
                }
            }
        }
        return Optional.empty();
    }

    /** Sends the Spot interruption warning now; the instance terminates two minutes later (on the clock). */
    public void interrupt(String instanceId) {
        if (pendingTerminations.putIfAbsent(instanceId, clock.instant().plus(INTERRUPTION_NOTICE)) == null) {
            events.accept(event("EC2 Spot Instance Interruption Warning",
                    Map.of("instance-id", instanceId, "instance-action", "terminate")));
        }
    }

    /**
     * Advances the fleet to the clock: terminates instances whose interruption notice ran out and
     * unprotected ones at the end of their lifetime (the scaling group replaces them), and draws new
     * interruptions at the configured rates.
     */
    public void tick() {
        Instant now = clock.instant();
        double hours;
        synchronized (this) {
            hours = Math.max(0, Duration.between(lastTick, now).toMillis() / 3_600_000.0);
            lastTick = now;
        }
        endLifetimes(now);
        for (Map.Entry<String, Instant> due : Map.copyOf(pendingTerminations).entrySet()) {
            if (!now.isBefore(due.getValue())) {
                pendingTerminations.remove(due.getKey());
                // EC2 tells of the end first; Auto Scaling notices after, at its health check.
                terminated(List.of(due.getKey()));
                for (ScalingGroup g : groups.values()) {
                    synchronized (g) {
                        if (g.instances.remove(due.getKey()) != null) {
                            fill(g);
                        }
                    }
                }
            }
        }
        if (hours == 0 || interruptionsPerHour.isEmpty()) {
            return;
        }
        for (ScalingGroup g : groups.values()) {
            List<SimulatedInstance> candidates;
            synchronized (g) {
                candidates = List.copyOf(g.instances.values());
            }
            for (SimulatedInstance i : candidates) {
                double rate = interruptionsPerHour.getOrDefault(i.type(), 0.0);
                if (rate > 0 && random.nextDouble() < 1 - Math.exp(-rate * hours)) {
                    interrupt(i.id());
                }
            }
        }
    }

    /** Auto Scaling's MaxInstanceLifetime: an unprotected instance at its end is replaced. */
    private void endLifetimes(Instant now) {
        if (maxInstanceLifetime.isZero()) {
            return;
        }
        List<String> ended = new ArrayList<>();
        for (ScalingGroup g : groups.values()) {
            synchronized (g) {
                if (g.instances.values().removeIf(i -> !i.protectedFromScaleIn()
                        && !now.isBefore(i.launchTime().plus(maxInstanceLifetime)) && ended.add(i.id()))) {
                    fill(g);
                }
            }
        }
        terminated(ended);
    }

    private Optional<ScalingGroup> scalingGroupOf(String gameServerGroup) {
        return groups.values().stream().filter(g -> g.group.name().equals(gameServerGroup)).findFirst();
    }

    /** The instances of a game server group's Auto Scaling group, as Describe shows them (none if it has none). */
    public List<ComputeInstance> instancesOf(String gameServerGroup) {
        return scalingGroupOf(gameServerGroup).map(g -> describeInstances(g.name)).orElse(List.of());
    }

    /** An instance in service, and the game server group whose scaling group has it. */
    public record RunningInstance(String gameServerGroupName, String instanceId) {}

    /** Every instance in service now (launched, its launch delay passed on the clock), of every group. */
    public List<RunningInstance> inService() {
        Instant now = clock.instant();
        List<RunningInstance> out = new ArrayList<>();
        for (ScalingGroup g : groups.values()) {
            synchronized (g) {
                for (SimulatedInstance i : g.instances.values()) {
                    if (!now.isBefore(i.launchTime().plus(launchDelay))) {
                        out.add(new RunningInstance(g.group.name(), i.id()));
                    }
                }
            }
        }
        return out;
    }

    /** Whether the game server group has an Auto Scaling group in this fleet. */
    public boolean hasScalingGroup(String gameServerGroup) {
        return scalingGroupOf(gameServerGroup).isPresent();
    }

    /**
     * Target tracking on PercentUtilizedGameServers: desired becomes the capacity that brings
     * the metric to the policy's target, within the group's sizes. Scale-in picks the newest
     * instances that are not protected, as the default termination policy would prefer.
     */
    void observe(String gameServerGroup, double percentUtilized) {
        ScalingGroup g = scalingGroupOf(gameServerGroup).orElse(null);
        if (g == null || g.group.autoScalingPolicy() == null) {
            return;
        }
        double target = Math.max(1, g.group.autoScalingPolicy().targetValue());
        List<String> scaledIn = new ArrayList<>();
        synchronized (g) {
            int current = g.instances.size();
            int wanted = Math.max(g.min, Math.min(g.max, (int) Math.ceil(current * percentUtilized / target)));
            if (wanted > g.desired) {
                g.desired = wanted;
                fill(g);
            } else if (wanted < g.desired && g.policyScalesIn) {
                scaledIn = scaleIn(g, wanted);
            }
        }
        terminated(scaledIn);
    }

    /**
     * Lowers desired capacity towards {@code wanted}, ending the newest instances that are not
     * protected; returns their ids (caller holds the group's lock, and sends their events after).
     */
    private static List<String> scaleIn(ScalingGroup g, int wanted) {
        List<String> scaledIn = new ArrayList<>();
        List<SimulatedInstance> newestFirst = new ArrayList<>(g.instances.values());
        java.util.Collections.reverse(newestFirst);
        for (SimulatedInstance i : newestFirst) {
            if (g.desired <= wanted) {
                break;
            }
            if (!i.protectedFromScaleIn()) {
                g.instances.remove(i.id());
                scaledIn.add(i.id());
                g.desired--;
            }
        }
        return scaledIn;
    }

    /** What EC2 tells EventBridge of instances that are gone; sent outside the groups' locks. */
    private void terminated(List<String> instanceIds) {
        for (String id : instanceIds) {
            events.accept(event("EC2 Instance State-change Notification", Map.of("instance-id", id, "state", "terminated")));
        }
    }

    private Map<String, Object> event(String detailType, Map<String, Object> detail) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("version", "0");
        e.put("id", java.util.UUID.randomUUID().toString());
        e.put("detail-type", detailType);
        e.put("source", "aws.ec2");
        e.put("account", accountId);
        e.put("time", clock.instant().toString());
        e.put("region", region);
        e.put("detail", detail);
        return e;
    }

    @Override
    public boolean deleteScalingGroup(String scalingGroupName, boolean force) {
        ScalingGroup g = groups.get(scalingGroupName);
        if (g == null) {
            return true;
        }
        List<String> removed = new ArrayList<>();
        boolean deleted;
        synchronized (g) {
            g.desired = 0;
            g.instances.values().removeIf(i -> (force || !i.protectedFromScaleIn()) && removed.add(i.id()));
            deleted = g.instances.isEmpty();
            if (deleted) {
                groups.remove(scalingGroupName);
            }
        }
        terminated(removed);
        return deleted;
    }

    @Override
    public void setInstanceTypes(String scalingGroupName, List<InstanceDefinition> definitions, BalancingStrategy strategy) {
        ScalingGroup g = require(scalingGroupName);
        synchronized (g) {
            g.definitions = List.copyOf(definitions);
            g.onDemandOnly = strategy == BalancingStrategy.ON_DEMAND_ONLY;
        }
    }

    /** Lowered below the instances it has, the group scales in as Auto Scaling does (unprotected ones). */
    @Override
    public void setDesiredCapacity(String scalingGroupName, int desiredCapacity) {
        ScalingGroup g = require(scalingGroupName);
        List<String> scaledIn = List.of();
        synchronized (g) {
            int wanted = Math.min(desiredCapacity, g.max);
            if (wanted < g.instances.size()) {
                g.desired = g.instances.size();
                scaledIn = scaleIn(g, wanted);
            }
            g.desired = wanted;
            fill(g);
        }
        terminated(scaledIn);
    }

    @Override
    public void setInstanceProtection(String scalingGroupName, String instanceId, boolean protectedFromScaleIn) {
        ScalingGroup g = require(scalingGroupName);
        synchronized (g) {
            g.instances.computeIfPresent(instanceId, (id, i) -> i.withProtection(protectedFromScaleIn));
        }
    }

    @Override
    public void setTargetTrackingScaleIn(GameServerGroup group, boolean scaleIn) {
        ScalingGroup g = require(group.autoScalingGroupName());
        synchronized (g) {
            g.policyScalesIn = scaleIn;
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
        terminated(List.of(instanceId));
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
            g.instances.put(id, new SimulatedInstance(id, type.instanceType(), zones.get(g.launched % zones.size()),
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
