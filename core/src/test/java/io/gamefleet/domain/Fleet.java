package io.gamefleet.domain;

import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.Compute.ScalingGroupState;
import io.gamefleet.domain.fakes.FakeCompute;
import io.gamefleet.domain.fakes.FakeLaunchTemplates;
import io.gamefleet.domain.fakes.InMemoryGameServerRepository;
import io.gamefleet.domain.fakes.InMemoryGroupRepository;
import io.gamefleet.domain.fakes.InMemoryInstanceRepository;
import io.gamefleet.domain.fakes.InMemoryInterruptionRepository;
import io.gamefleet.domain.fakes.InMemoryGroupSummaryRepository;
import io.gamefleet.domain.fakes.InMemoryStandbyRepository;
import io.gamefleet.domain.fakes.MutableClock;
import io.gamefleet.domain.fakes.RecordingInstanceNotifier;
import io.gamefleet.domain.fakes.RecordingMetrics;
import io.gamefleet.domain.fakes.RecordingWorkflowStarter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;

/**
 * One deployment's domain services on the in-memory fakes of its ports, and the arrangement the
 * service tests share: ACTIVE groups whose scaling groups have instances with game servers on them.
 * Time stands still until a test moves {@link #clock}.
 */
final class Fleet {
    static final Instant T0 = Instant.parse("2100-01-01T00:00:00Z");
    static final String GROUP = "arena";
    static final Duration CLAIM_TTL = Duration.ofSeconds(60);
    static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(60);
    static final Duration DELETED_RETENTION = Duration.ofHours(24);
    static final Duration ACTIVATION_TIMEOUT = Duration.ofMinutes(10);
    /**
     * What one instance may do: 16 game servers, ConnectionInfo checked, and fair shares of about
     * what the catalog's default throttles give (Throttles: 16 registrations at once, then one
     * every 5 s; 6 push messages at once, then 3 a second).
     */
    static final InstanceLimits LIMITS = new InstanceLimits(16, true, new FairShare.Budget(0.2, 16),
            new FairShare.Budget(3, 6));
    /** PlayFab's lifetimes, the catalog's defaults: 10 days, 23 hours of them guaranteed. */
    static final InstanceLifetime LIFETIME = new InstanceLifetime(Duration.ofHours(240), Duration.ofHours(23));
    static final ServiceSettings SETTINGS = new ServiceSettings("us-east-1", "123456789012", CLAIM_TTL,
            HEALTH_TIMEOUT, DELETED_RETENTION, ACTIVATION_TIMEOUT, "gamefleet-", LIMITS, LIFETIME);
    static final Duration VIABILITY_WINDOW = Duration.ofHours(1);
    static final double VIABILITY_THRESHOLD = 0.2;
    /** How often the balancer runs, as the stage's default schedule does. */
    static final Duration BALANCER_PERIOD = Duration.ofMinutes(1);
    static final String C5 = "c5.large";
    static final String M5 = "m5.large";
    static final List<InstanceDefinition> TYPES = List.of(new InstanceDefinition(C5, null), new InstanceDefinition(M5, null));

    final MutableClock clock = new MutableClock(T0);
    /**
     * What the services are built with: {@link #SETTINGS}, or what {@link #allowGameServersPerInstance}
     * and {@link #withLifetime} made of it.
     */
    private ServiceSettings settings = SETTINGS;
    final InMemoryGameServerRepository servers = new InMemoryGameServerRepository();
    final InMemoryGroupRepository groups = new InMemoryGroupRepository(servers);
    final InMemoryInstanceRepository instances = new InMemoryInstanceRepository();
    final InMemoryInterruptionRepository interruptions = new InMemoryInterruptionRepository();
    final InMemoryStandbyRepository standby = new InMemoryStandbyRepository();
    final InMemoryGroupSummaryRepository summaries = new InMemoryGroupSummaryRepository();
    final FakeCompute compute = new FakeCompute();
    final RecordingMetrics metrics = new RecordingMetrics();
    final RecordingWorkflowStarter workflows = new RecordingWorkflowStarter();
    final RecordingInstanceNotifier notifier = new RecordingInstanceNotifier();
    final List<String> log = new ArrayList<>();
    final PageTokens tokens = new PageTokens("fleet-test-key");
    final FakeLaunchTemplates templates = new FakeLaunchTemplates();
    static final String ALLOWED_PROFILE = "arn:aws:iam::123456789012:instance-profile/gamefleet/GameServerInstanceProfile";

    // ---- the services --------------------------------------------------------------------

    GroupService groupService() {
        return groupService(groups);
    }

    GroupService groupService(GroupRepository repository) {
        return new GroupService(repository, instances, workflows, tokens, settings, clock, launchGuard());
    }

    /** The deployment allows its own instance profile, {@link #ALLOWED_PROFILE}, and no other. */
    LaunchGuard launchGuard() {
        return new LaunchGuard(templates, Set.of(ALLOWED_PROFILE));
    }

    /** Claims try candidates strictly best first (a spread of one), so their order is the index's. */
    GameServerService gameServers() {
        return gameServers(servers);
    }

    GameServerService gameServers(GameServerRepository repository) {
        return gameServers(repository, instances);
    }

    /** Its notices go to {@link #notifier}, and read and clear connections in {@code instanceRepository}. */
    GameServerService gameServers(GameServerRepository repository, InstanceRepository instanceRepository) {
        return new GameServerService(groups, repository, instanceRepository, () -> compute,
                new ClaimPolicy(1, new SplittableRandom(1)), tokens, settings, clock, notices(instanceRepository));
    }

    /** Notices to {@link #notifier}, reading and clearing connections in {@code instanceRepository}. */
    InstanceNotices notices(InstanceRepository instanceRepository) {
        return new InstanceNotices(() -> notifier, instanceRepository, () -> metrics, log::add, clock);
    }

    PushConnections pushConnections() {
        return new PushConnections(instances, servers, LIMITS.pushMessages(), clock);
    }

    HealthReports healthReports() {
        return new HealthReports(servers, instances, () -> metrics, settings.lifetime(), clock);
    }

    GroupLifecycle lifecycle() {
        return new GroupLifecycle(groupService(), groups, servers, instances, compute, settings, clock);
    }

    SpotBalancer balancer() {
        return balancer(servers, compute);
    }

    SpotBalancer balancer(GameServerRepository servers, Compute compute) {
        return new SpotBalancer(groups, servers, instances, interruptions, compute, metrics, settings,
                VIABILITY_WINDOW, VIABILITY_THRESHOLD, BALANCER_PERIOD, clock, log::add,
                notices(instances), standby, summaries);
    }

    InstanceEvents events() {
        return events(servers);
    }

    InstanceEvents events(GameServerRepository servers) {
        return new InstanceEvents(groups, instances, servers, interruptions, compute, metrics, VIABILITY_WINDOW, clock,
                log::add);
    }

    // ---- arrangement ---------------------------------------------------------------------

    /** From now on, the services let one instance hold {@code max} game servers (a stage that raised the cap). */
    Fleet allowGameServersPerInstance(int max) {
        settings = new ServiceSettings(settings.region(), settings.accountId(), settings.claimTtl(), settings.healthTimeout(),
                settings.deletedRetention(), settings.activationTimeout(), settings.scalingGroupPrefix(),
                new InstanceLimits(max, LIMITS.connectionInfoCheck(), LIMITS.registrations(), LIMITS.pushMessages()),
                settings.lifetime());
        return this;
    }

    /** From now on, instances live as {@code lifetime} says. */
    Fleet withLifetime(InstanceLifetime lifetime) {
        settings = new ServiceSettings(settings.region(), settings.accountId(), settings.claimTtl(), settings.healthTimeout(),
                settings.deletedRetention(), settings.activationTimeout(), settings.scalingGroupPrefix(),
                settings.instanceLimits(), lifetime);
        return this;
    }

    /** What CreateGameServerGroup is given: two instance types, a launch template by name, sizes 1 to 4. */
    static GameServerGroup.Builder draft(String name) {
        return GameServerGroup.builder().name(name).roleArn("arn:aws:iam::123456789012:role/fleetiq")
                .instanceDefinitions(TYPES).minSize(1).maxSize(4)
                .launchTemplate(new LaunchTemplate(null, "game-server", null))
                .vpcSubnets(List.of("subnet-1"));
    }

    /** {@link #GROUP}, ACTIVE, SPOT_PREFERRED without protection; see {@link #activeGroup(String, UnaryOperator)}. */
    GameServerGroup activeGroup() {
        return activeGroup(GROUP, b -> b);
    }

    /**
     * Stores a group that its activation made ACTIVE (options change the {@link #draft}) and its
     * scaling group, with the group's types and sizes and, until {@link #launch}, no instance.
     */
    GameServerGroup activeGroup(String name, UnaryOperator<GameServerGroup.Builder> options) {
        GameServerGroup group = options.apply(draft(name)).arn(SETTINGS.groupArn(name))
                .status(GameServerGroupStatus.ACTIVE).creationTime(clock.instant()).lastUpdatedTime(clock.instant())
                .autoScalingGroupArn("arn:aws:autoscaling:us-east-1:123456789012:autoScalingGroup:x:autoScalingGroupName/"
                        + SETTINGS.autoScalingGroupName(name))
                .build();
        groups.create(group);
        compute.putScalingGroup(group.autoScalingGroupName(), new ScalingGroupState(0, group.minSize(), group.maxSize(),
                group.instanceDefinitions(), group.balancingStrategy() == BalancingStrategy.ON_DEMAND_ONLY, List.of()));
        return groups.find(name).orElseThrow();
    }

    /**
     * An instance the group's scaling group launched to meet its desired capacity (which grows
     * by one), in service, unprotected, launched at {@code launchTime}, and recorded as ACTIVE.
     */
    GameServerInstance launch(String group, String instanceId, String type, Instant launchTime) {
        raiseDesiredCapacity(group);
        ComputeInstance instance = new ComputeInstance(instanceId, type, "us-east-1a", true, false);
        compute.addInstance(SETTINGS.autoScalingGroupName(group), instance, launchTime);
        GameServerInstance recorded = GameServerInstance.active(group, instance,
                new Compute.LaunchedInstance(launchTime, FakeCompute.ADDRESSES));
        instances.save(recorded);
        return recorded;
    }

    /** {@link #launch(String, String, String, Instant)} into {@link #GROUP}, an hour before now. */
    GameServerInstance launch(String instanceId, String type) {
        return launch(GROUP, instanceId, type, clock.instant().minus(Duration.ofHours(1)));
    }

    /**
     * An instance the scaling group launched since the balancer last looked (for a desired capacity
     * it raised, say): in the scaling group only (the balancer records it), in service or not yet.
     */
    void replacement(String group, String instanceId, String type, boolean inService) {
        compute.addInstance(SETTINGS.autoScalingGroupName(group),
                new ComputeInstance(instanceId, type, "us-east-1b", inService, false), clock.instant());
    }

    /**
     * What the balancer does when it begins draining an ACTIVE instance: records it and its game
     * servers DRAINING, with its replacement requested, and raises desired capacity by one for
     * that (the scaling group launches it at {@link #replacement}).
     */
    void drain(String group, String instanceId) {
        instances.changeStatus(group, instanceId, InstanceStatus.ACTIVE, InstanceStatus.DRAINING, true);
        servers.setInstanceStatus(servers.onInstance(instanceId), InstanceStatus.DRAINING);
        raiseDesiredCapacity(group);
    }

    /** Desired capacity one higher, set on the fake directly (so that no API call is recorded). */
    private void raiseDesiredCapacity(String group) {
        ScalingGroupState s = scalingGroup(group);
        compute.putScalingGroup(SETTINGS.autoScalingGroupName(group), new ScalingGroupState(s.desiredCapacity() + 1,
                s.minSize(), s.maxSize(), s.instanceTypes(), s.onDemandOnly(), s.instances()));
    }

    /** Records a status the instance moved to (the servers registered on it keep theirs). */
    void setInstanceStatus(String group, String instanceId, InstanceStatus status) {
        instances.save(instances.find(group, instanceId).orElseThrow().withStatus(status));
    }

    ScalingGroupState scalingGroup(String group) {
        return compute.scalingGroup(SETTINGS.autoScalingGroupName(group)).orElseThrow();
    }

    /** Registers an AVAILABLE server, healthy now, with RegisterGameServer. */
    GameServer register(String group, String gameServerId, String instanceId) {
        return gameServers().register(new GameServerService.Registration(group, gameServerId, instanceId,
                Optional.of("10.0.0.1:7777"), Optional.empty()), Caller.UNBOUND);
    }

    GameServer register(String gameServerId, String instanceId) {
        return register(GROUP, gameServerId, instanceId);
    }

    /** UpdateGameServer of the server's process: a heartbeat and, if given, a new utilization status. */
    GameServer update(String group, String gameServerId, Optional<UtilizationStatus> status) {
        return gameServers().update(new GameServerService.Update(group, gameServerId, Optional.empty(), status, true),
                Caller.UNBOUND);
    }

    GameServer utilize(String gameServerId) {
        return update(GROUP, gameServerId, Optional.of(UtilizationStatus.UTILIZED));
    }

    GameServer heartbeat(String gameServerId) {
        return update(GROUP, gameServerId, Optional.empty());
    }

    /** ClaimGameServer with no id, data or filter. */
    GameServer claim(String group) {
        return gameServers().claim(new GameServerService.Claim(group, Optional.empty(), Optional.empty(), Optional.empty()));
    }

    GameServer server(String gameServerId) {
        return servers.find(gameServerId).orElseThrow();
    }

    GameServerGroup group(String name) {
        return groups.find(name).orElseThrow();
    }

    // ---- ports that misbehave --------------------------------------------------------------

    /** What a test does with one call of a port: answer it itself, or {@code proceed} to the real one. */
    interface Around {
        Object call(String method, Object[] args, Callable<Object> proceed) throws Exception;
    }

    /** {@code real}, with each call passing through {@code around} (to count it, lose it, race it). */
    static <T> T around(Class<T> port, T real, Around around) {
        Object proxy = Proxy.newProxyInstance(port.getClassLoader(), new Class<?>[] {port}, (p, method, args) -> {
            Callable<Object> proceed = () -> invoke(real, method, args);
            try {
                return around.call(method.getName(), args, proceed);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
        return port.cast(proxy);
    }

    private static Object invoke(Object real, Method method, Object[] args) throws Exception {
        try {
            return method.invoke(real, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }
}
