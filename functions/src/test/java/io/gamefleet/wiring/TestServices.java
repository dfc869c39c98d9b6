package io.gamefleet.wiring;

import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Settings;
import io.gamefleet.domain.MetricsHistory;
import io.gamefleet.domain.ServiceSettings;
import io.gamefleet.domain.fakes.FakeCompute;
import io.gamefleet.domain.fakes.FakeLaunchTemplates;
import io.gamefleet.domain.fakes.FakePeerRegions;
import io.gamefleet.domain.fakes.FakeTaskDefinitions;
import io.gamefleet.domain.fakes.InMemoryGameServerRepository;
import io.gamefleet.domain.fakes.InMemoryGroupRepository;
import io.gamefleet.domain.fakes.InMemoryGroupSummaryRepository;
import io.gamefleet.domain.fakes.InMemoryInstanceRepository;
import io.gamefleet.domain.fakes.InMemoryInterruptionRepository;
import io.gamefleet.domain.fakes.InMemorySessionRepository;
import io.gamefleet.domain.fakes.InMemoryStandbyRepository;
import io.gamefleet.domain.fakes.MutableClock;
import io.gamefleet.domain.fakes.RecordingInstanceNotifier;
import io.gamefleet.domain.fakes.RecordingMetrics;
import io.gamefleet.domain.fakes.RecordingWorkflowStarter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/** Services for the functions' tests: on in-memory fakes, or on AWS adapters that reach nothing. */
public final class TestServices {
    /** The fakes behind {@link #services}, for a test to arrange and inspect. */
    public final MutableClock clock = new MutableClock(Instant.parse("2100-01-01T00:00:00Z"));
    public final InMemoryGameServerRepository servers = new InMemoryGameServerRepository();
    public final InMemoryGroupRepository groups = new InMemoryGroupRepository(servers);
    public final InMemorySessionRepository sessions = new InMemorySessionRepository(servers);
    public final InMemoryStandbyRepository standby = new InMemoryStandbyRepository();
    public final InMemoryGroupSummaryRepository summaries = new InMemoryGroupSummaryRepository();
    /** What the metrics' history answers: each group's points, whatever the range asked. */
    public final Map<String, List<MetricsHistory.CountsAt>> history = new java.util.concurrent.ConcurrentHashMap<>();
    public final MetricsHistory metricsHistory = (group, from, to, period) -> history.getOrDefault(group, List.of());
    public final InMemoryInstanceRepository instances = new InMemoryInstanceRepository();
    public final InMemoryInterruptionRepository interruptions = new InMemoryInterruptionRepository();
    public final FakeCompute compute = new FakeCompute();
    public final RecordingMetrics metrics = new RecordingMetrics();
    public final RecordingWorkflowStarter workflows = new RecordingWorkflowStarter();
    public final RecordingInstanceNotifier notifier = new RecordingInstanceNotifier();
    public final FakeLaunchTemplates templates = new FakeLaunchTemplates();
    /** None until a test puts some ({@link FakeTaskDefinitions#put}). */
    public final FakeTaskDefinitions taskDefinitions = new FakeTaskDefinitions();
    /** No peers until a test names some ({@link FakePeerRegions#add}). */
    public final FakePeerRegions peers = new FakePeerRegions();
    /** The one instance profile the test deployment allows. */
    public static final String ALLOWED_PROFILE = "arn:aws:iam::000000000000:instance-profile/GameServerInstanceProfile";
    public final List<String> log = new ArrayList<>();
    /** The groups whose standby evaluation claims and deregistrations asked for, in order. */
    public final List<String> standbyRequested = new java.util.concurrent.CopyOnWriteArrayList<>();
    public final Services services;

    /** Services on fakes, with the local profile's account and the default settings. */
    public TestServices() {
        Map<Role, CallerRole> roles = new EnumMap<>(Role.class);
        for (Role role : Role.values()) {
            roles.put(role, new CallerRole(LocalAccount.roleArn(role), LocalAccount.roleId(role)));
        }
        ServiceSettings settings = new ServiceSettings(LocalAccount.REGION, LocalAccount.ACCOUNT_ID,
                Duration.ofSeconds(60), Duration.ofSeconds(180), Duration.ofDays(1), Duration.ofMinutes(15),
                Settings.SCALING_GROUP_PREFIX.defaultValue(), AwsServices.instanceLimits(Settings.Setting::defaultValue),
                AwsServices.lifetime(Settings.Setting::defaultValue));
        services = new Services(new Services.Ports(groups, servers, sessions, standby, instances, interruptions, () -> compute,
                () -> metrics, workflows, () -> templates, () -> notifier, standbyRequested::add, peers,
                summaries, () -> metricsHistory, () -> taskDefinitions),
                new Services.Config(settings, "test-key", Duration.ofHours(1), 0.2, Duration.ofMinutes(1), roles, Set.of(ALLOWED_PROFILE)),
                clock, log::add);
    }

    /**
     * Services on the AWS adapters with DynamoDB at a port nobody listens on: a request that gets
     * past decoding and validation answers 500, so a 400 shows nothing reached the store.
     */
    public static Services unreachableStore(Map<String, String> environment) {
        Map<String, String> env = new HashMap<>(environment);
        env.put("AWS_REGION", LocalAccount.REGION);
        env.put("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:1");
        env.put("AWS_ENDPOINT_URL", "http://127.0.0.1:1");
        env.putIfAbsent(Settings.PAGE_TOKEN_KEY.environmentVariable(), "a-test-pagination-key");
        // The local account's caller roles, unless the test names its own.
        for (Role role : Role.values()) {
            env.putIfAbsent(Settings.roleArn(role).environmentVariable(), LocalAccount.roleArn(role));
            env.putIfAbsent(Settings.roleId(role).environmentVariable(), LocalAccount.roleId(role));
        }
        return AwsServices.fromEnvironment(env)
                .credentials(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b"))).build();
    }
}
