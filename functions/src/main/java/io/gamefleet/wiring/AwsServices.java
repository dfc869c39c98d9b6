package io.gamefleet.wiring;

import io.gamefleet.adapters.autoscaling.AwsAutoScalingCompute;
import io.gamefleet.adapters.dynamodb.DynamoGameServerRepository;
import io.gamefleet.adapters.dynamodb.DynamoSessionRepository;
import io.gamefleet.adapters.cloudwatch.CloudWatchMetricsHistory;
import io.gamefleet.adapters.dynamodb.DynamoGroupSummaryRepository;
import io.gamefleet.adapters.dynamodb.DynamoStandbyRepository;
import io.gamefleet.adapters.lambda.LambdaStandbyEvaluations;
import io.gamefleet.adapters.dynamodb.DynamoGroupRepository;
import io.gamefleet.adapters.dynamodb.DynamoInstanceRepository;
import io.gamefleet.adapters.dynamodb.DynamoInterruptionRepository;
import io.gamefleet.adapters.dynamodb.TableNames;
import io.gamefleet.adapters.ec2.Ec2Instances;
import io.gamefleet.adapters.ec2.Ec2NetworkInterfaces;
import io.gamefleet.adapters.ecs.EcsClusterSettings;
import io.gamefleet.adapters.ecs.EcsServiceCompute;
import io.gamefleet.adapters.ecs.EcsTaskDefinitions;
import io.gamefleet.adapters.ec2.Ec2LaunchTemplates;
import io.gamefleet.adapters.metrics.EmfMetrics;
import io.gamefleet.adapters.peers.HttpPeerRegions;
import io.gamefleet.adapters.push.ApiGatewayInstanceNotifier;
import io.gamefleet.adapters.stepfunctions.StepFunctionsWorkflowStarter;
import io.gamefleet.catalog.Lifetimes;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Settings;
import io.gamefleet.catalog.Tables;
import io.gamefleet.catalog.Settings.Setting;
import io.gamefleet.catalog.Throttles;
import io.gamefleet.domain.Compute;
import io.gamefleet.domain.ComputeByKind;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.FairShare;
import io.gamefleet.domain.InstanceLifetime;
import io.gamefleet.domain.InstanceLimits;
import io.gamefleet.domain.InstanceNotifier;
import io.gamefleet.domain.LaunchTemplates;
import io.gamefleet.domain.Metrics;
import io.gamefleet.domain.MetricsHistory;
import io.gamefleet.domain.PeerRegions;
import io.gamefleet.domain.ServiceSettings;
import io.gamefleet.domain.StandbyEvaluations;
import io.gamefleet.domain.TaskDefinitions;
import io.gamefleet.logging.JsonLog;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.apigatewaymanagementapi.ApiGatewayManagementApiClient;
import software.amazon.awssdk.services.apigatewaymanagementapi.auth.scheme.ApiGatewayManagementApiAuthSchemeProvider;
import software.amazon.awssdk.services.autoscaling.AutoScalingClient;
import software.amazon.awssdk.services.cloudwatch.CloudWatchClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.model.GetSecretValueRequest;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;

/**
 * {@link Services} on the AWS adapters, read from an environment as a deployed Lambda function
 * reads its own. Endpoints follow the SDK's own variables (AWS_ENDPOINT_URL_DYNAMODB,
 * AWS_ENDPOINT_URL_SFN, AWS_ENDPOINT_URL), so nothing here knows where it runs; the local profile
 * plugs in its simulated fleet and its metrics, and the tests their clock and interceptors.
 */
public final class AwsServices {
    /**
     * One attempt of an AWS call, and the call with the SDK's retries: well inside the API
     * functions' 20 s, so that a stalled dependency ends in a quick 500 InternalServiceException
     * ("safe to retry") from the function rather than in the function's timeout.
     */
    public static final Duration CALL_ATTEMPT_TIMEOUT = Duration.ofSeconds(3);
    public static final Duration CALL_TIMEOUT = Duration.ofSeconds(8);
    /** The HTTP client's own: to open a connection, and between two reads of an answer. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(3);
    /**
     * A notice is posted inside the claim (or deregistration) that caused it, and is best effort:
     * one attempt, bounded well below the claim's own time, so that a stalled management API
     * delays a claim by at most this much and never fails it.
     */
    public static final Duration NOTICE_TIMEOUT = Duration.ofMillis(1500);

    private final Map<String, String> environment;
    private Clock clock = Clock.systemUTC();
    private AwsCredentialsProvider credentials;
    private final List<ExecutionInterceptor> interceptors = new ArrayList<>();
    private Compute compute;
    private LaunchTemplates launchTemplates;
    private Metrics metrics;
    private MetricsHistory metricsHistory;
    private StandbyEvaluations standbyEvaluations;
    private AwsCredentialsProvider peerCredentials;
    private EcsServiceCompute.PublicAddresses taskPublicAddresses;
    static final String NO_CONTAINER_CLUSTER = "container groups need a stack deployed with containers=true: this "
            + "deployment names no ECS cluster (" + Settings.CONTAINER_CLUSTER.environmentVariable() + ")";

    private AwsServices(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    public static AwsServices fromEnvironment(Map<String, String> environment) {
        return new AwsServices(environment);
    }

    public AwsServices clock(Clock clock) {
        this.clock = clock;
        return this;
    }

    public AwsServices credentials(AwsCredentialsProvider credentials) {
        this.credentials = credentials;
        return this;
    }

    public AwsServices interceptors(List<ExecutionInterceptor> interceptors) {
        this.interceptors.addAll(interceptors);
        return this;
    }

    /** Another compute port than Auto Scaling for EC2 groups (the local profile's simulated fleet). */
    public AwsServices compute(Compute compute) {
        this.compute = compute;
        return this;
    }

    /** Another launch templates port than EC2 (the local profile's simulated fleet has no templates). */
    public AwsServices launchTemplates(LaunchTemplates launchTemplates) {
        this.launchTemplates = launchTemplates;
        return this;
    }

    /** Another metrics port than EMF lines on standard output. */
    public AwsServices metrics(Metrics metrics) {
        this.metrics = metrics;
        return this;
    }

    /** Another history of the metrics than CloudWatch's (the local profile's series). */
    public AwsServices metricsHistory(MetricsHistory metricsHistory) {
        this.metricsHistory = metricsHistory;
        return this;
    }

    /** Another way to evaluate standby buffers between balancer runs than Lambda (the local profile's own). */
    public AwsServices standbyEvaluations(StandbyEvaluations standbyEvaluations) {
        this.standbyEvaluations = standbyEvaluations;
        return this;
    }

    /**
     * Credentials to sign every peer region's calls with (the local profile's MATCHMAKER principal
     * that its peers know); when not given, each peer's MatchmakerRoleArn is assumed with STS.
     */
    public AwsServices peerCredentials(AwsCredentialsProvider credentials) {
        this.peerCredentials = credentials;
        return this;
    }

    /**
     * Where container tasks' public addresses come from, other than EC2's network interfaces (the
     * local profile's tasks have none, and no EC2 to ask).
     */
    public AwsServices taskPublicAddresses(EcsServiceCompute.PublicAddresses addresses) {
        this.taskPublicAddresses = addresses;
        return this;
    }

    public Services build() {
        String regionName = environment.get("AWS_REGION");
        if (regionName == null || regionName.isBlank()) {
            // Lambda always sets it; elsewhere, guessing a region would sign for the wrong one.
            throw new IllegalStateException("AWS_REGION is not set");
        }
        Region region = Region.of(regionName);
        // A container's first claim of a group, and listings, read its 16 shards at once: keep that
        // many connections alive on the URL connection client (the JDK keeps 5 per host unless told;
        // the CRT client keeps up to 50), or each read opens (and TLS-handshakes) new ones.
        if (System.getProperty("http.maxConnections") == null) {
            System.setProperty("http.maxConnections", Integer.toString(Math.max(16, Tables.GAME_SERVER_SHARDS)));
        }
        AwsCredentialsProvider creds = credentials != null ? credentials : credentials(environment);
        List<ExecutionInterceptor> traced = traced(interceptors);
        DynamoDbClient dynamoDb = configure(DynamoDbClient.builder(), endpoint("DYNAMODB"), region, creds, traced).build();
        // Built on first use: claims and heartbeats map their items by hand and never need it.
        Supplier<DynamoDbEnhancedClient> enhanced = Lazy.of(() -> DynamoDbEnhancedClient.builder()
                .dynamoDbClient(dynamoDb).build());
        TableNames tables = new TableNames(environment);
        Supplier<SfnClient> sfn = Lazy.of(() -> configure(SfnClient.builder(), endpoint("SFN"), region, creds, traced).build());
        // Built on first use: most API functions never need Auto Scaling or EC2.
        Supplier<Ec2Client> ec2 = Lazy.of(() -> configure(Ec2Client.builder(), endpoint("EC2"), region, creds, traced).build());
        InstanceLifetime lifetime = lifetime(this::setting);
        Supplier<Compute> scalingGroups = Lazy.of(() -> new AwsAutoScalingCompute(
                configure(AutoScalingClient.builder(), endpoint("AUTO_SCALING"), region, creds,
                        traced).build(), new Ec2Instances(ec2.get()), setting(Settings.STAGE),
                setting(Settings.SCALING_GROUP_PREFIX), lifetime.max()));
        // Built on first use, and only where the stack has a cluster: nothing else reaches ECS.
        EcsClusterSettings containerCluster = EcsClusterSettings.from(this::setting, region.id());
        Supplier<EcsClient> ecs = Lazy.of(() -> {
            if (containerCluster.cluster().isBlank()) {
                throw GamefleetException.invalidRequest(NO_CONTAINER_CLUSTER);
            }
            return configure(EcsClient.builder(), endpoint("ECS"), region, creds, traced).build();
        });
        Supplier<TaskDefinitions> taskDefinitions = Lazy.of(() -> new EcsTaskDefinitions(ecs.get()));
        Services.Config config = config(region, lifetime);
        Supplier<Compute> containerServices = Lazy.of(() -> new EcsServiceCompute(ecs.get(), containerCluster,
                setting(Settings.STAGE), config.settings()::containerServiceName,
                taskPublicAddresses != null ? taskPublicAddresses : new Ec2NetworkInterfaces(ec2.get())::publicAddresses,
                clock));
        Supplier<Compute> computePort = Lazy.of(() -> new ComputeByKind(compute != null ? () -> compute : scalingGroups,
                containerServices, config.settings()));
        Supplier<LaunchTemplates> templatesPort = launchTemplates != null ? () -> launchTemplates
                : Lazy.of(() -> new Ec2LaunchTemplates(ec2.get()));
        Supplier<Metrics> metricsPort = metrics != null ? () -> metrics
                : Lazy.of(() -> new EmfMetrics(clock, System.out::println, setting(Settings.STAGE)));
        // Built on first use: only the metrics route reads CloudWatch.
        Supplier<MetricsHistory> historyPort = metricsHistory != null ? () -> metricsHistory
                : Lazy.of(() -> new CloudWatchMetricsHistory(configure(CloudWatchClient.builder(), endpoint("CLOUDWATCH"),
                        region, creds, traced).build()));
        DynamoGameServerRepository servers = new DynamoGameServerRepository(dynamoDb, tables);
        Services.Ports ports = new Services.Ports(
                new DynamoGroupRepository(dynamoDb, enhanced, tables),
                servers, new DynamoSessionRepository(dynamoDb, tables, servers),
                new DynamoStandbyRepository(dynamoDb, tables),
                new DynamoInstanceRepository(dynamoDb, enhanced, tables),
                new DynamoInterruptionRepository(dynamoDb, tables),
                computePort, metricsPort,
                new StepFunctionsWorkflowStarter(sfn, setting(Settings.ACTIVATION_STATE_MACHINE_ARN),
                        setting(Settings.DELETION_STATE_MACHINE_ARN)),
                templatesPort, notifier(region, creds),
                standbyEvaluations != null ? standbyEvaluations : standbyFunction(region, creds),
                peers(region, creds, traced), new DynamoGroupSummaryRepository(dynamoDb, tables),
                historyPort, taskDefinitions);
        return new Services(ports, config, clock, JsonLog::info);
    }


    /** Notices through the push channel's management API, when one is configured; made on first use. */
    private Supplier<InstanceNotifier> notifier(Region region, AwsCredentialsProvider creds) {
        String endpoint = setting(Settings.PUSH_ENDPOINT);
        if (endpoint.isBlank()) {
            return null;
        }
        return Lazy.of(() -> new ApiGatewayInstanceNotifier(ApiGatewayManagementApiClient.builder()
                .region(region).credentialsProvider(creds).endpointOverride(URI.create(endpoint))
                .authSchemeProvider(signedBy(clock))
                .httpClientBuilder(serviceDefaults -> HttpClients.forEndpoint(Optional.of(endpoint), environment,
                        NOTICE_TIMEOUT))
                .overrideConfiguration(ClientOverrideConfiguration.builder().executionInterceptors(interceptors)
                        .apiCallTimeout(NOTICE_TIMEOUT)
                        .retryStrategy(AwsRetryStrategy.doNotRetry()).build())
                .build()));
    }

    /**
     * Standby evaluations as asynchronous invocations of the configured function, its client made on
     * first use; bounded as a notice is (one attempt within {@link #NOTICE_TIMEOUT}), since the claim
     * that asks waits for Lambda's answer. None when no function is configured.
     */
    private StandbyEvaluations standbyFunction(Region region, AwsCredentialsProvider creds) {
        String function = setting(Settings.STANDBY_FUNCTION);
        if (function.isBlank()) {
            return StandbyEvaluations.none();
        }
        Optional<String> endpoint = endpoint("LAMBDA");
        Supplier<StandbyEvaluations> invoker = Lazy.of(() -> new LambdaStandbyEvaluations(LambdaClient.builder()
                .region(region).credentialsProvider(creds)
                .endpointOverride(endpoint.map(URI::create).orElse(null))
                .httpClientBuilder(serviceDefaults -> HttpClients.forEndpoint(endpoint, environment, NOTICE_TIMEOUT))
                .overrideConfiguration(ClientOverrideConfiguration.builder().executionInterceptors(traced(interceptors))
                        .apiCallTimeout(NOTICE_TIMEOUT)
                        .retryStrategy(AwsRetryStrategy.doNotRetry()).build())
                .build(), function));
        return group -> invoker.get().requested(group);
    }

    /**
     * The peers of {@link Settings#PEERS}, none when it is empty. Each peer's calls are signed with
     * the given peer credentials, else with a session of its MATCHMAKER role (assumed with STS,
     * refreshed before it expires), else with the function's own. A malformed value fails the start.
     */
    private PeerRegions peers(Region region, AwsCredentialsProvider creds, List<ExecutionInterceptor> traced) {
        List<PeerSetting> peers = PeerSetting.parse(setting(Settings.PEERS));
        if (peers.isEmpty()) {
            return PeerRegions.NONE;
        }
        Duration budget = Duration.ofMillis(Long.parseLong(setting(Settings.PEER_TIMEOUT_MILLIS)));
        Supplier<StsClient> sts = Lazy.of(() -> configure(StsClient.builder(), endpoint("STS"), region, creds, traced)
                .build());
        List<HttpPeerRegions.Endpoint> endpoints = peers.stream().map(p -> new HttpPeerRegions.Endpoint(p.region(),
                p.apiUrl(), peerCredentials != null ? peerCredentials : p.matchmakerRoleArn()
                        .<AwsCredentialsProvider>map(role -> StsAssumeRoleCredentialsProvider.builder()
                                .stsClient(sts.get()).refreshRequest(r -> r.roleArn(role)
                                        .roleSessionName("gamefleet-peer-" + region.id()))
                                .build())
                        .orElse(creds))).toList();
        return new HttpPeerRegions(endpoints, HttpClients.forEndpoint(Optional.of(peers.get(0).apiUrl().toString()),
                environment, budget), budget, clock);
    }

    /**
     * SigV4 signing by the services' clock: the system's in AWS, as by default; the local profile's,
     * which its tests move, so that the edge takes the notices it verifies by that clock.
     */
    private static ApiGatewayManagementApiAuthSchemeProvider signedBy(Clock clock) {
        ApiGatewayManagementApiAuthSchemeProvider standard = ApiGatewayManagementApiAuthSchemeProvider.defaultProvider();
        return params -> standard.resolveAuthScheme(params).stream()
                .map(option -> option.toBuilder().putSignerProperty(HttpSigner.SIGNING_CLOCK, clock).build()).toList();
    }

    private Services.Config config(Region region, InstanceLifetime lifetime) {
        ServiceSettings settings = new ServiceSettings(region.id(), setting(Settings.ACCOUNT_ID),
                seconds(Settings.CLAIM_TTL_SECONDS), seconds(Settings.HEALTH_TIMEOUT_SECONDS),
                seconds(Settings.DELETED_RETENTION_SECONDS), seconds(Settings.ACTIVATION_TIMEOUT_SECONDS),
                setting(Settings.SCALING_GROUP_PREFIX), instanceLimits(this::setting), lifetime);
        Map<Role, CallerRole> roles = new EnumMap<>(Role.class);
        for (Role role : Role.values()) {
            roles.put(role, new CallerRole(setting(Settings.roleArn(role)), setting(Settings.roleId(role))));
        }
        return new Services.Config(settings, pageTokenKey(region), seconds(Settings.VIABILITY_WINDOW_SECONDS),
                number(Settings.VIABILITY_THRESHOLD), seconds(Settings.BALANCER_RATE_SECONDS), roles,
                list(Settings.INSTANCE_PROFILE_ARNS), Optional.of(new CallerRole(setting(Settings.VIEWER_ROLE_ARN),
                        setting(Settings.VIEWER_ROLE_ID))).filter(viewer -> !viewer.arn().isEmpty()));
    }

    /**
     * What one instance may do: the stage's cap and ConnectionInfo check, and its fair shares of
     * the throttles the same settings size ({@link Throttles}). A bad value fails the start, naming it.
     */
    public static InstanceLimits instanceLimits(Function<Setting, String> settings) {
        Throttles throttles = Throttles.of(settings);
        return new InstanceLimits(throttles.maxGameServersPerInstance(),
                Settings.isOn(Settings.CONNECTION_INFO_CHECK, settings.apply(Settings.CONNECTION_INFO_CHECK)),
                budget(throttles.instanceRegistrations()), budget(throttles.instanceMessages()));
    }

    /** How long instances live ({@link Lifetimes}): a bad value, or a guarantee not below the maximum, fails the start. */
    public static InstanceLifetime lifetime(Function<Setting, String> settings) {
        Lifetimes lifetimes = Lifetimes.of(settings, Setting::environmentVariable);
        return new InstanceLifetime(lifetimes.maxInstance(), lifetimes.guaranteedServer());
    }

    private static FairShare.Budget budget(Throttles.Limit share) {
        return new FairShare.Budget(share.rate(), share.burst());
    }

    /**
     * The functions' DynamoDB client: the SDK's, configured as the other AWS clients are. {@code
     * endpoint} null is DynamoDB's regional endpoint. Benchmarks make theirs here too, so that they
     * measure the client the functions use (with the HTTP client of a fresh JVM's start).
     */
    public static DynamoDbClient dynamoDb(URI endpoint, String region, AwsCredentialsProvider credentials,
            List<ExecutionInterceptor> interceptors) {
        return configure(DynamoDbClient.builder(), Optional.ofNullable(endpoint).map(URI::toString), Region.of(region),
                credentials, interceptors, Map.of()).build();
    }

    /**
     * The interceptors, and X-Ray's where the deployment traces ({@link Settings#TRACING}): each
     * AWS call is then a subsegment of the function's trace. Without tracing no X-Ray class is
     * loaded, so an untraced cold start pays nothing for it.
     */
    private List<ExecutionInterceptor> traced(List<ExecutionInterceptor> given) {
        if (!Boolean.parseBoolean(setting(Settings.TRACING))) {
            return given;
        }
        List<ExecutionInterceptor> all = new ArrayList<>(given);
        all.add(XRayTracing.interceptor());
        return all;
    }

    /**
     * The environment's keys when it has them (Lambda without SnapStart sets them), read as they
     * are, else the SDK's default chain (SnapStart: the container credentials endpoint, which the
     * chain's provider asks again as the credentials near their expiry, after a restore too).
     */
    static AwsCredentialsProvider credentials(Map<String, String> environment) {
        String id = environment.get("AWS_ACCESS_KEY_ID");
        String secret = environment.get("AWS_SECRET_ACCESS_KEY");
        if (id == null || id.isBlank() || secret == null || secret.isBlank()) {
            return DefaultCredentialsProvider.builder().build();
        }
        String token = environment.get("AWS_SESSION_TOKEN");
        return StaticCredentialsProvider.create(token == null || token.isBlank() ? AwsBasicCredentials.create(id, secret)
                : AwsSessionCredentials.create(id, secret, token));
    }

    private <B extends AwsClientBuilder<B, C>, C> B configure(B builder, Optional<String> endpoint, Region region,
            AwsCredentialsProvider creds, List<ExecutionInterceptor> interceptors) {
        return configure(builder, endpoint, region, creds, interceptors, environment);
    }

    private static <B extends AwsClientBuilder<B, C>, C> B configure(B builder, Optional<String> endpoint,
            Region region, AwsCredentialsProvider creds, List<ExecutionInterceptor> interceptors,
            Map<String, String> environment) {
        builder.region(region).credentialsProvider(creds)
                .overrideConfiguration(ClientOverrideConfiguration.builder().executionInterceptors(interceptors)
                        .retryStrategy(RetryMode.STANDARD).apiCallAttemptTimeout(CALL_ATTEMPT_TIMEOUT).apiCallTimeout(CALL_TIMEOUT).build());
        if (builder instanceof AwsSyncClientBuilder<?, ?> sync) {
            // A builder, not a client: the AWS client then owns its HTTP client and closes it with itself.
            sync.httpClientBuilder(serviceDefaults -> HttpClients.forEndpoint(endpoint, environment, SOCKET_TIMEOUT));
        }
        endpoint.ifPresent(e -> builder.endpointOverride(URI.create(e)));
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

    /**
     * The pagination key: the secret's value, read once here, as the function starts (before a
     * SnapStart snapshot is taken, which then holds it; the client is closed, so no connection
     * outlives the snapshot), or the plain setting where no secret is named (the local profile).
     * A secret that cannot be read fails the start, saying which, and so does no key at all: a
     * default everyone knows would let any caller forge page tokens.
     */
    private String pageTokenKey(Region region) {
        String secret = setting(Settings.PAGE_TOKEN_SECRET_ARN);
        if (secret.isEmpty()) {
            String key = setting(Settings.PAGE_TOKEN_KEY);
            if (key.isEmpty()) {
                throw new IllegalStateException("no pagination key: set " + Settings.PAGE_TOKEN_SECRET_ARN.environmentVariable()
                        + " (the secret the stack makes) or " + Settings.PAGE_TOKEN_KEY.environmentVariable()
                        + " (the key itself, as the local profile does); with none, page tokens could be forged");
            }
            return key;
        }
        AwsCredentialsProvider creds = credentials != null ? credentials : credentials(environment);
        try (SecretsManagerClient secrets = configure(SecretsManagerClient.builder(), endpoint("SECRETS_MANAGER"), region, creds,
                traced(interceptors))
                .build()) {
            return secrets.getSecretValue(GetSecretValueRequest.builder().secretId(secret).build()).secretString();
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot read the pagination key from secret " + secret + ": "
                    + e.getMessage(), e);
        }
    }

    private Set<String> list(Setting s) {
        return Arrays.stream(setting(s).split(",")).map(String::trim).filter(v -> !v.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
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
}
