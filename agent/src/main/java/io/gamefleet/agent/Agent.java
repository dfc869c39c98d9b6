package io.gamefleet.agent;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.imds.Ec2MetadataClient;
import software.amazon.awssdk.imds.Ec2MetadataRetryPolicy;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.gamelift.GameLiftClient;

/**
 * One instance's agent, wired: the supervisor and its round every {@link #TICK}, the GSDK endpoint,
 * the FleetIQ client, the metadata watcher, the push channel. Several can run in one JVM (the local
 * profile's simulated instances), each with its own credentials and folders.
 */
public final class Agent implements AutoCloseable {
    /** How often the supervisor looks at its processes: the start, stop and crash checks' resolution. */
    static final Duration TICK = Duration.ofMillis(100);

    /** A start that cannot work: the message says what to fix. */
    public static final class StartFailure extends Exception {
        StartFailure(String message) {
            super(message);
        }
    }

    private final Supervisor supervisor;
    private final GsdkEndpoint endpoint;
    private final ScheduledExecutorService scheduler;
    private final ExecutorService apiThread;
    private final FileChannel lockFile;
    private final LogArchive archive;
    private final int gsdkPort;
    private final Duration stopGrace;

    private Agent(Supervisor supervisor, GsdkEndpoint endpoint, ScheduledExecutorService scheduler, ExecutorService apiThread,
            FileChannel lockFile, LogArchive archive, int gsdkPort, Duration stopGrace) {
        this.supervisor = supervisor;
        this.endpoint = endpoint;
        this.scheduler = scheduler;
        this.apiThread = apiThread;
        this.lockFile = lockFile;
        this.archive = archive;
        this.gsdkPort = gsdkPort;
        this.stopGrace = stopGrace;
    }

    /**
     * Starts the agent of one instance, signing with {@code credentials} (the SDK's default chain on
     * an instance; locally each simulated instance's principal).
     */
    static Agent start(AgentConfig config, AwsCredentialsProvider credentials) throws Exception {
        Clock clock = Clock.systemUTC();
        AgentLog log = AgentLog.stderr(clock);
        Files.createDirectories(config.workDirectory());
        FileChannel lockFile = FileChannel.open(config.workDirectory().resolve("agent.lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock held = lockFile.tryLock();
        if (held == null) {
            lockFile.close();
            throw new StartFailure("another agent runs on " + config.workDirectory() + "; stop it or give this one another workDirectory");
        }
        Optional<InstanceMetadata> metadata = metadata(config);
        String instanceId;
        String address;
        try {
            instanceId = config.instanceId() != null ? config.instanceId()
                    : metadata.flatMap(m -> m.get(InstanceMetadata.INSTANCE_ID)).orElse(null);
            address = config.connectionAddress() != null ? config.connectionAddress()
                    : metadata.flatMap(m -> m.get(InstanceMetadata.PUBLIC_IPV4).or(() -> m.get(InstanceMetadata.LOCAL_IPV4)))
                            .orElse(GsdkEndpoint.LOOPBACK);
        } catch (RuntimeException e) {
            lockFile.close();
            throw new StartFailure("cannot read the instance metadata (" + e.getMessage() + "): set instanceId and "
                    + "connectionAddress, or metadataEndpoint");
        }
        if (instanceId == null) {
            lockFile.close();
            throw new StartFailure("no instanceId in the configuration and no instance metadata to read it from");
        }
        String region = config.region() != null ? config.region() : new DefaultAwsRegionProviderChain().getRegion().id();

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
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2, daemon("agent-" + instanceId));

        StateFile stateFile = new StateFile(config.workDirectory());
        Optional<StateFile.Saved> saved;
        try {
            saved = stateFile.read();
        } catch (IOException e) {
            // Starting afresh would leave the earlier run's processes running with no one to deregister them.
            lockFile.close();
            throw new StartFailure("the state file " + config.workDirectory().resolve(StateFile.NAME)
                    + " is unreadable (" + e.getMessage() + "); stop the game servers it lists, then remove it");
        }
        int port = config.gsdkPort() != 0 ? config.gsdkPort() : saved.map(StateFile.Saved::gsdkPort).orElse(0);
        GameServerLaunch launch = new GameServerLaunch(config, instanceId, address);
        ProcessLauncher launcher = new SetsidProcessLauncher();
        LogArchive archive = config.archiveBucket() == null
                ? new FolderLogArchive(config.archiveDirectory(), config.gameServerGroupName(), instanceId,
                        config.archiveMaxBytes(), log)
                : new S3LogArchive(S3LogArchive.client(region, credentials),
                        S3LogArchive.callerUserId(S3LogArchive.sts(region, credentials)), config.archiveBucket(),
                        config.workDirectory().resolve(S3LogArchive.OUTBOX), config.gameServerGroupName(), instanceId,
                        config.archiveMaxBytes(), log)
                        .retryingEvery(S3LogArchive.RETRY_PERIOD);
        AgentMain.PortHolder gsdkPort = new AgentMain.PortHolder();
        Supervisor supervisor = new Supervisor(config, instanceId, clock, launcher, launch, api, apiThread,
                new OutputReadiness(config.wrapper(), launch), archive, log, gsdkPort);
        saved.ifPresent(s -> StateFile.restore(s, supervisor, launcher, clock, log));
        GsdkEndpoint endpoint = new GsdkEndpoint(supervisor, port);
        try {
            gsdkPort.port = endpoint.start();
        } catch (java.io.IOException e) {
            archive.close();
            lockFile.close();
            throw new StartFailure("cannot listen on 127.0.0.1:" + port + " for the GSDK (" + e.getMessage()
                    + "); free that port or set gsdkPort");
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
            PushChannel push = new PushChannel(config.pushEndpoint(), instanceId, config.gameServerGroupName(), region,
                    credentials, supervisor, scheduler, config.timings().pushPing(), log);
            supervisor.healthChannel(push);
            push.onOpen(new ClaimCatchUp(api, supervisor, apiThread, clock, log)).start();
        } else {
            log.warn("no pushEndpoint: claims and operator shutdowns will not reach this agent");
        }
        return new Agent(supervisor, endpoint, scheduler, apiThread, lockFile, archive, gsdkPort.port, config.timings().stopGrace());
    }

    public int gsdkPort() {
        return gsdkPort;
    }

    /** Stops the agent and leaves its processes running, as a SIGKILL would (a restart adopts them). */
    @Override
    public void close() throws Exception {
        scheduler.shutdownNow();
        apiThread.shutdownNow();
        scheduler.awaitTermination(5, TimeUnit.SECONDS);
        endpoint.stop();
        archive.close();
        lockFile.close();
    }

    /** Stops the agent and its processes: TERM to every process group, the grace, then KILL. */
    public void shutdown() throws Exception {
        scheduler.shutdownNow();
        scheduler.awaitTermination(5, TimeUnit.SECONDS);
        List<GameProcess> running;
        synchronized (supervisor.lock) {
            running = supervisor.servers().map(s -> s.process).filter(p -> p != null && p.isAlive()).toList();
        }
        running.forEach(GameProcess::terminate);
        Instant deadline = Instant.now().plus(stopGrace);
        while (running.stream().anyMatch(GameProcess::isAlive) && Instant.now().isBefore(deadline)) {
            Thread.sleep(50); // real processes exiting: nothing to move a clock for
        }
        running.stream().filter(GameProcess::isAlive).forEach(GameProcess::kill);
        close();
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
        return Optional.of(InstanceMetadata.of(builder::build));
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

}
