package io.gamefleet.agent;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.imds.Ec2MetadataClient;
import software.amazon.awssdk.imds.Ec2MetadataRetryPolicy;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.gamelift.GameLiftClient;

/** {@code java -jar gamefleet-agent.jar agent.json}: the agent of one instance (docs/agent.md). */
public final class AgentMain {
    /** How often the supervisor looks at its processes: the start, stop and crash checks' resolution. */
    static final Duration TICK = Duration.ofMillis(100);

    private AgentMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: java -jar gamefleet-agent.jar AGENT_CONFIG.json (docs/agent.md)");
            System.exit(2);
        }
        AgentConfig config;
        try {
            config = AgentConfigReader.read(Path.of(args[0]));
        } catch (AgentConfigReader.ConfigException e) {
            System.err.println("gamefleet-agent: " + e.getMessage());
            System.exit(2);
            return;
        }
        run(config);
    }

    static void run(AgentConfig config) throws Exception {
        Clock clock = Clock.systemUTC();
        AgentLog log = AgentLog.stderr(clock);
        Files.createDirectories(config.workDirectory());
        FileChannel lockFile = FileChannel.open(config.workDirectory().resolve("agent.lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock held = lockFile.tryLock();
        if (held == null) {
            System.err.println("gamefleet-agent: another agent runs on " + config.workDirectory() + "; stop it or give this one another workDirectory");
            System.exit(2);
        }
        Optional<InstanceMetadata> metadata = metadata(config);
        String instanceId = config.instanceId() != null ? config.instanceId()
                : metadata.flatMap(m -> m.get(InstanceMetadata.INSTANCE_ID)).orElseThrow(() -> new IllegalStateException(
                        "no instanceId in the configuration and no instance metadata to read it from"));
        String address = config.connectionAddress() != null ? config.connectionAddress()
                : metadata.flatMap(m -> m.get(InstanceMetadata.PUBLIC_IPV4).or(() -> m.get(InstanceMetadata.LOCAL_IPV4)))
                        .orElse(GsdkEndpoint.LOOPBACK);
        String region = config.region() != null ? config.region() : new DefaultAwsRegionProviderChain().getRegion().id();
        AwsCredentialsProvider credentials = DefaultCredentialsProvider.builder().build();

        var gameLift = GameLiftClient.builder().region(Region.of(region)).credentialsProvider(credentials)
                .httpClientBuilder(UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofSeconds(2))
                        .socketTimeout(Duration.ofSeconds(5)))
                // FleetSync retries with its own backoff, the processes running on meanwhile.
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()).apiCallTimeout(Duration.ofSeconds(10)));
        if (config.apiEndpoint() != null) {
            gameLift.endpointOverride(config.apiEndpoint());
        }
        FleetApi api = new GameLiftFleetApi(gameLift.build(), config.gameServerGroupName(), instanceId);
        ExecutorService apiThread = Executors.newSingleThreadExecutor(daemon("fleet-api"));
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2, daemon("agent"));

        StateFile stateFile = new StateFile(config.workDirectory());
        Optional<StateFile.Saved> saved;
        try {
            saved = stateFile.read();
        } catch (IOException e) {
            // Starting afresh would leave the earlier run's processes running with no one to deregister them.
            System.err.println("gamefleet-agent: the state file " + config.workDirectory().resolve(StateFile.NAME)
                    + " is unreadable (" + e.getMessage() + "); stop the game servers it lists, then remove it");
            System.exit(2);
            return;
        }
        int port = config.gsdkPort() != 0 ? config.gsdkPort() : saved.map(StateFile.Saved::gsdkPort).orElse(0);
        GameServerLaunch launch = new GameServerLaunch(config, instanceId, address);
        ProcessLauncher launcher = new SetsidProcessLauncher();
        LogArchive archive = new LogArchive(config.archiveDirectory(), config.gameServerGroupName(), instanceId, log);
        PortHolder gsdkPort = new PortHolder();
        Supervisor supervisor = new Supervisor(config, instanceId, clock, launcher, launch, api, apiThread,
                new OutputReadiness(config.wrapper(), launch), archive, log, gsdkPort);
        saved.ifPresent(s -> StateFile.restore(s, supervisor, launcher, clock, log));
        GsdkEndpoint endpoint = new GsdkEndpoint(supervisor, port);
        try {
            gsdkPort.port = endpoint.start();
        } catch (java.io.IOException e) {
            System.err.println("gamefleet-agent: cannot listen on 127.0.0.1:" + port + " for the GSDK (" + e.getMessage()
                    + "); free that port or set gsdkPort");
            System.exit(2);
        }
        log.info("agent of " + instanceId + " in " + config.gameServerGroupName() + ": GSDK endpoint 127.0.0.1:"
                + gsdkPort.port + ", " + config.processes() + " x " + config.command() + " (" + config.mode() + ")");

        scheduler.scheduleWithFixedDelay(() -> {
            try {
                supervisor.tick();
                if (supervisor.takeChanged()) {
                    stateFile.save(supervisor);
                }
            } catch (IOException | RuntimeException e) {
                log.warn("supervision round failed: " + e);
            }
        }, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
        metadata.ifPresent(m -> {
            MaintenanceWatcher watcher = new MaintenanceWatcher(m, instanceId, supervisor::maintenance, log);
            long period = config.timings().metadataPoll().toMillis();
            scheduler.scheduleWithFixedDelay(watcher::poll, 0, period, TimeUnit.MILLISECONDS);
        });
        if (config.pushEndpoint() != null) {
            new PushChannel(config.pushEndpoint(), instanceId, config.gameServerGroupName(), region, credentials,
                    supervisor, scheduler, config.timings().pushPing(), log).start();
        } else {
            log.warn("no pushEndpoint: claims and operator shutdowns will not reach this agent");
        }
        Thread.currentThread().join();
    }

    /**
     * The instance metadata, unless there is none: with no metadataEndpoint and
     * AWS_EC2_METADATA_DISABLED=true (off EC2, as in the tests), the agent reads none.
     */
    private static Optional<InstanceMetadata> metadata(AgentConfig config) {
        boolean disabled = "true".equalsIgnoreCase(System.getenv("AWS_EC2_METADATA_DISABLED"));
        if (config.metadataEndpoint() == null && disabled) {
            return Optional.empty();
        }
        Ec2MetadataClient.Builder builder = Ec2MetadataClient.builder()
                .httpClient(UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofSeconds(1))
                        .socketTimeout(Duration.ofSeconds(2)))
                .retryPolicy(Ec2MetadataRetryPolicy.none());
        if (config.metadataEndpoint() != null) {
            builder.endpoint(config.metadataEndpoint());
        }
        return Optional.of(InstanceMetadata.of(builder.build()));
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** The GSDK port, known once Jetty listens (the processes of a restarted agent find it in its state file). */
    static final class PortHolder implements java.util.function.IntSupplier {
        volatile int port;

        @Override
        public int getAsInt() {
            return port;
        }
    }
}
