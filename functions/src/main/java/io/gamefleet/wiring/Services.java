package io.gamefleet.wiring;

import io.gamefleet.catalog.Role;
import io.gamefleet.domain.ClaimPolicy;
import io.gamefleet.domain.Compute;
import io.gamefleet.domain.GameServerRepository;
import io.gamefleet.domain.GameServerService;
import io.gamefleet.domain.GroupLifecycle;
import io.gamefleet.domain.GroupRepository;
import io.gamefleet.domain.GroupSummaries;
import io.gamefleet.domain.GroupSummaryRepository;
import io.gamefleet.domain.GroupService;
import io.gamefleet.domain.HealthReports;
import io.gamefleet.domain.InstanceEvents;
import io.gamefleet.domain.InstanceNotices;
import io.gamefleet.domain.InstanceNotifier;
import io.gamefleet.domain.InstanceRepository;
import io.gamefleet.domain.InterruptionRepository;
import io.gamefleet.domain.LaunchGuard;
import io.gamefleet.domain.LaunchTemplates;
import io.gamefleet.domain.Metrics;
import io.gamefleet.domain.MetricsHistory;
import io.gamefleet.domain.PageTokens;
import io.gamefleet.domain.PushConnections;
import io.gamefleet.domain.PeerRegions;
import io.gamefleet.domain.QosServers;
import io.gamefleet.domain.ServiceSettings;
import io.gamefleet.domain.SessionRepository;
import io.gamefleet.domain.SessionService;
import io.gamefleet.domain.SpotBalancer;
import io.gamefleet.domain.StandbyEvaluations;
import io.gamefleet.domain.StandbyRepository;
import io.gamefleet.domain.StandbyRequests;
import io.gamefleet.domain.StandbyService;
import io.gamefleet.domain.TaskDefinitions;
import io.gamefleet.domain.WorkflowReconciler;
import io.gamefleet.domain.WorkflowStarter;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The object graph every function uses, built once per container from the ports a deployment
 * plugs in: the AWS adapters ({@link AwsServices}, from a function's environment), or in-memory
 * fakes in tests. Handlers receive it; nothing else builds domain services.
 */
public final class Services {
    private static volatile Services shared;

    /**
     * What the domain services run on: the AWS adapters, or fakes. {@code notifier} null: no push
     * channel. {@code taskDefinitions}: what CreateContainerGroup reads a container group's from.
     */
    public record Ports(GroupRepository groups, GameServerRepository servers, SessionRepository sessions,
            StandbyRepository standby, InstanceRepository instances,
            InterruptionRepository interruptions, Supplier<Compute> compute, Supplier<Metrics> metrics,
            WorkflowStarter workflows, Supplier<LaunchTemplates> launchTemplates, Supplier<InstanceNotifier> notifier,
            StandbyEvaluations standbyEvaluations, PeerRegions peers, GroupSummaryRepository summaries,
            Supplier<MetricsHistory> metricsHistory, Supplier<TaskDefinitions> taskDefinitions) {}

    /**
     * The deployment's settings, as the functions read them from their environment.
     * {@code instanceProfileArns}: those a group's launch template may name.
     */
    public record Config(ServiceSettings settings, String pageTokenKey, Duration viabilityWindow,
            double viabilityThreshold, Duration balancerPeriod, Map<Role, CallerRole> callerRoles,
            Set<String> instanceProfileArns, java.util.Optional<CallerRole> viewerRole) {
        public Config {
            callerRoles = Map.copyOf(callerRoles);
            instanceProfileArns = Set.copyOf(instanceProfileArns);
        }

        /** A deployment that serves no console: no viewer role. */
        public Config(ServiceSettings settings, String pageTokenKey, Duration viabilityWindow, double viabilityThreshold,
                Duration balancerPeriod, Map<Role, CallerRole> callerRoles, Set<String> instanceProfileArns) {
            this(settings, pageTokenKey, viabilityWindow, viabilityThreshold, balancerPeriod, callerRoles,
                    instanceProfileArns, java.util.Optional.empty());
        }
    }

    private final Clock clock;
    private final Config config;
    private final GroupService groupService;
    private final GameServerService gameServerService;
    private final SessionService sessionService;
    private final StandbyService standbyService;
    private final Supplier<GroupLifecycle> lifecycle;
    private final Supplier<SpotBalancer> balancer;
    private final Supplier<InstanceEvents> instanceEvents;
    private final WorkflowReconciler reconciler;
    private final PushConnections pushConnections;
    private final HealthReports healthReports;
    private final QosServers qosServers;
    private final PeerRegions peers;
    private final GroupSummaries summaries;
    private final Supplier<TaskDefinitions> taskDefinitions;

    public Services(Ports ports, Config config, Clock clock, Consumer<String> log) {
        this.clock = clock;
        this.config = config;
        ServiceSettings settings = config.settings();
        PageTokens tokens = new PageTokens(config.pageTokenKey());
        // The templates' port is built on first use: only CreateGameServerGroup asks it.
        LaunchGuard launches = new LaunchGuard(template -> ports.launchTemplates().get().resolve(template),
                config.instanceProfileArns());
        this.groupService = new GroupService(ports.groups(), ports.instances(), ports.workflows(), tokens, settings, clock,
                launches);
        // SecureRandom: thread-safe (the local profile serves requests concurrently), and reseeded
        // after a SnapStart restore, so environments restored from one snapshot spread differently.
        InstanceNotices notices = ports.notifier() == null ? InstanceNotices.none()
                : new InstanceNotices(ports.notifier(), ports.instances(), ports.metrics(), log, clock);
        this.gameServerService = new GameServerService(ports.groups(), ports.servers(), ports.instances(),
                ports.compute(), new ClaimPolicy(8, new SecureRandom()), tokens, settings, clock, notices,
                new StandbyRequests(ports.standbyEvaluations(), clock, log));
        this.peers = ports.peers();
        this.taskDefinitions = ports.taskDefinitions();
        this.sessionService = new SessionService(gameServerService, ports.groups(), ports.servers(), ports.sessions(),
                ports.peers(), tokens, settings, clock);
        this.summaries = new GroupSummaries(groupService, ports.summaries(), ports.metricsHistory(), clock);
        this.standbyService = new StandbyService(ports.groups(), ports.standby(), settings, clock);
        this.pushConnections = new PushConnections(ports.instances(), ports.servers(),
                settings.instanceLimits().pushMessages(), clock);
        this.qosServers = new QosServers(ports.groups(), ports.instances(), new SecureRandom(), clock);
        this.healthReports = new HealthReports(ports.servers(), ports.instances(), ports.metrics(),
                settings.lifetime(), clock);
        // Built on first use: only the workflow steps, the balancer and the event handler need them.
        this.lifecycle = Lazy.of(() -> new GroupLifecycle(groupService, ports.groups(), ports.servers(),
                ports.instances(), ports.compute().get(), settings, clock));
        this.balancer = Lazy.of(() -> new SpotBalancer(ports.groups(), ports.servers(), ports.instances(),
                ports.interruptions(), ports.compute().get(), ports.metrics().get(), settings,
                config.viabilityWindow(), config.viabilityThreshold(), config.balancerPeriod(), clock, log, notices,
                ports.standby(), ports.summaries()));
        this.reconciler = new WorkflowReconciler(ports.groups(), groupService, ports.workflows(), clock, log);
        this.instanceEvents = Lazy.of(() -> new InstanceEvents(ports.groups(), ports.instances(), ports.servers(),
                ports.interruptions(), ports.compute().get(), ports.metrics().get(), config.viabilityWindow(), clock, log));
    }

    /** The services of a deployed function: its environment, the system clock, AWS itself. */
    public static Services shared() {
        Services s = shared;
        if (s == null) {
            synchronized (Services.class) {
                if (shared == null) {
                    shared = AwsServices.fromEnvironment(System.getenv()).build();
                }
                s = shared;
            }
        }
        return s;
    }

    public GroupService groups() {
        return groupService;
    }

    public GameServerService gameServers() {
        return gameServerService;
    }

    public SessionService sessions() {
        return sessionService;
    }

    /** A group with its last balancer run's counts ({@code GET .../summary}), and its metrics' last hour ({@code GET .../metrics}). */
    public GroupSummaries summaries() {
        return summaries;
    }

    public StandbyService standby() {
        return standbyService;
    }

    public GroupLifecycle lifecycle() {
        return lifecycle.get();
    }

    public SpotBalancer balancer() {
        return balancer.get();
    }

    public InstanceEvents instanceEvents() {
        return instanceEvents.get();
    }

    /** Restarts the lost workflows of groups in a status a workflow owns (the balancer's schedule runs it). */
    public WorkflowReconciler reconciler() {
        return reconciler;
    }

    /** The agents' push connections (the WebSocket routes' functions). */
    public PushConnections pushConnections() {
        return pushConnections;
    }

    /** The agents' health reports over their push connections (the {@code $default} route). */
    public HealthReports healthReports() {
        return healthReports;
    }

    /** The QoS beacons to list ({@code GET /qos-servers}). */
    public QosServers qosServers() {
        return qosServers;
    }

    /** ECS's task definitions, which a container group names (CreateContainerGroup alone asks). */
    public TaskDefinitions taskDefinitions() {
        return taskDefinitions.get();
    }

    /** The stage's peers in other regions (none unless it names some). */
    public PeerRegions peers() {
        return peers;
    }

    public ServiceSettings settings() {
        return config.settings();
    }

    /** The IAM role each caller role's sessions come from (ARN and id empty where none is configured). */
    public Map<Role, CallerRole> callerRoles() {
        return config.callerRoles();
    }

    /** The console viewers' IAM role ({@link io.gamefleet.catalog.ConsoleAccess}), where the stack serves a console. */
    public java.util.Optional<CallerRole> viewerRole() {
        return config.viewerRole();
    }

    public Clock clock() {
        return clock;
    }
}
