package io.gamefleet.wiring;

import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Settings;
import io.gamefleet.catalog.Settings.Setting;
import io.gamefleet.adapters.metrics.EmfMetrics;
import io.gamefleet.adapters.autoscaling.AwsAutoScalingCompute;
import io.gamefleet.domain.ClaimPolicy;
import io.gamefleet.domain.Compute;
import io.gamefleet.domain.GameServerService;
import io.gamefleet.domain.GroupLifecycle;
import io.gamefleet.domain.GroupService;
import io.gamefleet.domain.InstanceEvents;
import io.gamefleet.domain.Metrics;
import io.gamefleet.domain.SpotBalancer;
import io.gamefleet.domain.PageTokens;
import io.gamefleet.domain.ServiceSettings;
import io.gamefleet.adapters.dynamodb.DynamoGameServerRepository;
import io.gamefleet.adapters.dynamodb.DynamoGroupRepository;
import io.gamefleet.adapters.dynamodb.DynamoInstanceRepository;
import io.gamefleet.adapters.dynamodb.DynamoInterruptionRepository;
import io.gamefleet.adapters.dynamodb.TableNames;
import io.gamefleet.adapters.stepfunctions.StepFunctionsWorkflowStarter;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.autoscaling.AutoScalingClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * Wires the domain services to their AWS adapters from an environment, as a deployed Lambda
 * function reads its own. Built once per container (static initialisation, so SnapStart
 * snapshots it); the local profile and the tests build one from their own environment map,
 * clock and compute port. Endpoints follow the SDK's own variables (AWS_ENDPOINT_URL_DYNAMODB,
 * AWS_ENDPOINT_URL_SFN, AWS_ENDPOINT_URL), so nothing here knows where it runs.
 */
public final class Services {
    private static volatile Services shared;

    private final Map<String, String> environment;
    private final Clock clock;
    private final Region region;
    private final AwsCredentialsProvider credentials;
    private final List<ExecutionInterceptor> interceptors;
    private final DynamoDbClient dynamoDb;
    private final ServiceSettings settings;
    private final GroupService groupService;
    private final GameServerService gameServerService;
    private final Supplier<GroupLifecycle> lifecycle;
    private final Supplier<SpotBalancer> balancer;
    private final InstanceEvents instanceEvents;

    public Services(Map<String, String> environment, Clock clock, Optional<Compute> compute,
            Optional<Metrics> metrics, AwsCredentialsProvider credentials, List<ExecutionInterceptor> interceptors) {
        this.environment = Map.copyOf(environment);
        this.clock = clock;
        String regionName = environment.get("AWS_REGION");
        if (regionName == null || regionName.isBlank()) {
            // Lambda always sets it; elsewhere, guessing a region would sign for the wrong one.
            throw new IllegalStateException("AWS_REGION is not set");
        }
        this.region = Region.of(regionName);
        this.credentials = credentials;
        this.interceptors = List.copyOf(interceptors);
        this.dynamoDb = configure(DynamoDbClient.builder(), "DYNAMODB").build();
        DynamoDbEnhancedClient enhanced = DynamoDbEnhancedClient.builder().dynamoDbClient(dynamoDb).build();
        TableNames tables = new TableNames(environment);
        var groups = new DynamoGroupRepository(dynamoDb, enhanced, tables);
        var servers = new DynamoGameServerRepository(dynamoDb, enhanced, tables);
        var instances = new DynamoInstanceRepository(dynamoDb, enhanced, tables);
        this.settings = new ServiceSettings(region.id(), setting(Settings.ACCOUNT_ID),
                seconds(Settings.CLAIM_TTL_SECONDS), seconds(Settings.HEALTH_TIMEOUT_SECONDS),
                seconds(Settings.DELETED_RETENTION_SECONDS), seconds(Settings.ACTIVATION_TIMEOUT_SECONDS));
        PageTokens tokens = new PageTokens(setting(Settings.PAGE_TOKEN_KEY));
        Supplier<SfnClient> sfn = memoize(() -> configure(SfnClient.builder(), "SFN").build());
        var workflows = new StepFunctionsWorkflowStarter(sfn, setting(Settings.ACTIVATION_STATE_MACHINE_ARN),
                setting(Settings.DELETION_STATE_MACHINE_ARN));
        this.groupService = new GroupService(groups, instances, workflows, tokens, settings, clock);
        // Built on first use: most API functions never need Auto Scaling (registration asks it
        // only about an instance launched since the balancer last looked).
        Supplier<Compute> computePort = compute.<Supplier<Compute>>map(c -> () -> c).orElse(memoize(
                () -> new AwsAutoScalingCompute(configure(AutoScalingClient.builder(), "AUTO_SCALING").build(), clock)));
        // SecureRandom: thread-safe (the local profile serves requests concurrently), and reseeded
        // after a SnapStart restore, so environments restored from one snapshot spread differently.
        this.gameServerService = new GameServerService(groups, servers, instances, computePort,
                new ClaimPolicy(8, new SecureRandom()), tokens, settings, clock);
        this.lifecycle = memoize(() -> new GroupLifecycle(groupService, groups, servers, instances,
                computePort.get(), settings, clock));
        var interruptions = new DynamoInterruptionRepository(dynamoDb, tables);
        Metrics metricsPort = metrics.orElseGet(() -> new EmfMetrics(clock, System.out::println));
        Duration window = seconds(Settings.VIABILITY_WINDOW_SECONDS);
        double threshold = number(Settings.VIABILITY_THRESHOLD);
        this.balancer = memoize(() -> new SpotBalancer(groups, servers, instances, interruptions, computePort.get(),
                metricsPort, settings, window, threshold, clock, System.out::println));
        this.instanceEvents = new InstanceEvents(instances, servers, interruptions, metricsPort, window, clock,
                System.out::println);
    }

    /** The services of a deployed function: its environment, the system clock, AWS itself. */
    public static Services shared() {
        Services s = shared;
        if (s == null) {
            synchronized (Services.class) {
                if (shared == null) {
                    shared = new Services(System.getenv(), Clock.systemUTC(), Optional.empty(), Optional.empty(),
                            DefaultCredentialsProvider.builder().build(), List.of());
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

    public GroupLifecycle lifecycle() {
        return lifecycle.get();
    }

    public SpotBalancer balancer() {
        return balancer.get();
    }

    public InstanceEvents instanceEvents() {
        return instanceEvents;
    }

    /** The role ARN each caller role's sessions come from (empty where none is configured). */
    public Map<Role, String> callerRoleArns() {
        Map<Role, String> arns = new EnumMap<>(Role.class);
        for (Role role : Role.values()) {
            arns.put(role, setting(Settings.roleArn(role)));
        }
        return arns;
    }

    public ServiceSettings settings() {
        return settings;
    }

    public Clock clock() {
        return clock;
    }

    public DynamoDbClient dynamoDb() {
        return dynamoDb;
    }

    private <B extends AwsClientBuilder<B, C>, C> B configure(B builder, String service) {
        builder.region(region).credentialsProvider(credentials)
                .overrideConfiguration(ClientOverrideConfiguration.builder().executionInterceptors(interceptors).build());
        if (builder instanceof software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder<?, ?> sync) {
            sync.httpClientBuilder(UrlConnectionHttpClient.builder());
        }
        endpoint(service).ifPresent(e -> builder.endpointOverride(URI.create(e)));
        return builder;
    }

    private Optional<String> endpoint(String service) {
        String specific = environment.get("AWS_ENDPOINT_URL_" + service);
        if (specific != null && !specific.isBlank()) {
            return Optional.of(specific);
        }
        return Optional.ofNullable(environment.get("AWS_ENDPOINT_URL")).filter(s -> !s.isBlank());
    }

    private String setting(Setting s) {
        String value = environment.get(s.environmentVariable());
        return value == null || value.isBlank() ? s.defaultValue() : value;
    }

    private Duration seconds(Setting s) {
        String value = setting(s);
        try {
            return Duration.ofSeconds(Long.parseLong(value));
        } catch (NumberFormatException e) {
            throw new IllegalStateException(s.environmentVariable() + " must be a whole number of seconds, not " + value);
        }
    }

    private double number(Setting s) {
        String value = setting(s);
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new IllegalStateException(s.environmentVariable() + " must be a number, not " + value);
        }
    }

    private static <T> Supplier<T> memoize(Supplier<T> supplier) {
        return new Supplier<>() {
            private volatile T value;

            @Override
            public T get() {
                T v = value;
                if (v == null) {
                    synchronized (this) {
                        if (value == null) {
                            value = supplier.get();
                        }
                        v = value;
                    }
                }
                return v;
            }
        };
    }
}
