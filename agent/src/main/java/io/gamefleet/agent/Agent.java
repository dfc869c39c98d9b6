package io.gamefleet.agent;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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
    /** The supervision round: a tick, and the state file saved if anything worth keeping changed. */
    private final Runnable round;
    private final GsdkEndpoint endpoint;
    private final ScheduledExecutorService scheduler;
    private final ExecutorService apiThread;
    private final FileChannel lockFile;
    private final LogArchive archive;
    private final PushConnection push;
    private final Optional<QosBeacon> qosBeacon;
    private final int gsdkPort;
    private final Duration shutdownBudget;
    private final AgentLog log;
    /** An ECS task's sidecar's round and end; empty for an instance's agent. */
    private final Optional<Sidecar> sidecar;
    private boolean shutDown;

    private Agent(Supervisor supervisor, Runnable round, GsdkEndpoint endpoint, ScheduledExecutorService scheduler,
            ExecutorService apiThread, FileChannel lockFile, LogArchive archive, PushConnection push,
            Optional<QosBeacon> qosBeacon, int gsdkPort, Duration shutdownBudget, AgentLog log, Optional<Sidecar> sidecar) {
        this.supervisor = supervisor;
        this.round = round;
        this.endpoint = endpoint;
        this.scheduler = scheduler;
        this.apiThread = apiThread;
        this.lockFile = lockFile;
        this.archive = archive;
        this.push = push;
        this.qosBeacon = qosBeacon;
        this.gsdkPort = gsdkPort;
        this.shutdownBudget = shutdownBudget;
        this.log = log;
        this.sidecar = sidecar;
    }

    /** Waits out a retry's delay; tests give one that does not wait. */
    interface Sleeper {
        void sleep(Duration delay) throws InterruptedException;
    }

    /**
     * What the agent takes from the machine it runs on: where its log goes, its privileges (which
     * decide whether each process gets a user of its own), its environment (of which a process gets
     * only the allow-list), how it waits before trying a start again, and its retries' jitter.
     */
    record Context(AgentLog log, Privileges privileges, java.util.Map<String, String> environment, Sleeper sleeper,
            java.util.function.DoubleSupplier jitter) {
        static Context ofThisProcess() {
            return new Context(AgentLog.stderr(Clock.systemUTC()), Privileges.ofThisProcess(), System.getenv(),
                    delay -> Thread.sleep(delay.toMillis()), Backoff.randomJitter());
        }
    }

    /** A start that may work when tried again (the metadata unreadable, the GSDK port busy): never exit code 2. */
    private static final class Transient extends Exception {
        Transient(String message) {
            super(message);
        }
    }

    /**
     * Starts the agent of one instance, signing with {@code credentials} (the SDK's default chain on
     * an instance; locally each simulated instance's principal).
     */
    static Agent start(AgentConfig config, AwsCredentialsProvider credentials) throws Exception {
        return start(config, credentials, Context.ofThisProcess());
    }

    /**
     * A configuration that cannot work is a {@link StartFailure} (exit code 2, which systemd does not
     * restart); what may pass (the metadata, the GSDK port) is tried again with the API's backoff,
     * logged each time, until it works or the thread is interrupted.
     */
    static Agent start(AgentConfig config, AwsCredentialsProvider credentials, Context context) throws Exception {
        Clock clock = Clock.systemUTC();
        AgentLog log = context.log();
        boolean sidecar = config.mode() == AgentConfig.Mode.SIDECAR;
        // A sidecar's game server runs as its own container's user, which the agent does not choose.
        ServerUsers users = sidecar ? ServerUsers.agent() : ServerUsers.decide(config, context.privileges(), log);
        ServerFolders folders = new ServerFolders(config.workDirectory(), config.serversDirectory(), sidecar);
        try {
            folders.prepare();
        } catch (IOException e) {
            throw new StartFailure("cannot prepare " + config.workDirectory() + " (the agent's alone, 0700) and "
                    + config.serversDirectory() + " (0711) (" + e + "); give both to the agent's user");
        }
        FileChannel lockFile = FileChannel.open(config.workDirectory().resolve("agent.lock"),
                Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(ServerFolders.AGENT_ONLY_FILE));
        List<AutoCloseable> opened = new java.util.ArrayList<>(List.of(lockFile));
        try {
            Files.setPosixFilePermissions(config.workDirectory().resolve("agent.lock"), ServerFolders.AGENT_ONLY_FILE);
            if (lockFile.tryLock() == null) {
                throw new StartFailure("another agent runs on " + config.workDirectory() + "; stop it or give this one another workDirectory");
            }
            // A task has no instance metadata of its own: its identity is the task metadata's.
            Optional<InstanceMetadata> metadata = sidecar ? Optional.empty() : metadata(config, context.environment());
            if (!sidecar && config.instanceId() == null && metadata.isEmpty()) {
                throw new StartFailure("no instanceId in the configuration and no instance metadata to read it from");
            }
            HttpClient taskHttp = sidecar ? HttpClient.newBuilder().connectTimeout(TaskMetadata.TIMEOUT).build() : null;
            String[] instance = sidecar ? taskIdentity(config, context, taskHttp) : instanceIdentity(config, metadata, context);
            String instanceId = instance[0];
            String address = instance[1];
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
            opened.add(apiThread::shutdownNow);
            opened.add(scheduler::shutdownNow);

            StateFile stateFile = new StateFile(config.workDirectory());
            Optional<StateFile.Saved> saved;
            try {
                saved = stateFile.read();
            } catch (IOException e) {
                // Starting afresh would leave the earlier run's processes running with no one to deregister them.
                throw new StartFailure("the state file " + config.workDirectory().resolve(StateFile.NAME)
                        + " is unreadable (" + e.getMessage() + "); stop the game servers it lists, then remove it");
            }
            int port = config.gsdkPort() != 0 ? config.gsdkPort() : saved.map(StateFile.Saved::gsdkPort).orElse(0);
            GameServerLaunch launch = new GameServerLaunch(config, instanceId, address, folders, context.environment());
            ProcessLauncher launcher = sidecar ? new TaskContainerLauncher(clock)
                    : new SetsidProcessLauncher(GameServerLaunch.allowed(context.environment()).get("PATH"));
            if (users.perServer() && !launcher.canExecute(users.uid(0), config.command(), launch.processPath())) {
                log.warn("the command " + config.command() + " is not executable by the game servers' uids " + users.range()
                        + " (searched as they search it): they will fail to start. Put the game where every user may read and "
                        + "execute it (not under a 0700 home such as /root), or set runAs \"agent\"");
            }
            LogArchive archive = config.archiveBucket() == null
                    ? new FolderLogArchive(config.archiveDirectory(), config.gameServerGroupName(), instanceId,
                            config.archiveMaxBytes(), log)
                    : new S3LogArchive(S3LogArchive.client(region, credentials),
                            S3LogArchive.callerUserId(S3LogArchive.sts(region, credentials)), config.archiveBucket(),
                            config.workDirectory().resolve(S3LogArchive.OUTBOX), config.gameServerGroupName(), instanceId,
                            config.archiveMaxBytes(), clock, log)
                            .retryingEvery(S3LogArchive.RETRY_PERIOD);
            opened.add(archive);
            AgentMain.PortHolder gsdkPort = new AgentMain.PortHolder();
            Supervisor supervisor = new Supervisor(config, instanceId, clock, launcher, launch, users, api, apiThread,
                    new OutputReadiness(config.wrapper(), launch), archive, log, gsdkPort,
                    Supervisor.Backoffs.of(config.timings(), context.jitter()));
            saved.ifPresent(s -> StateFile.restore(s, supervisor, launcher, folders, clock, log));
            GsdkEndpoint endpoint = retried("listen on 127.0.0.1:" + port + " for the GSDK", config.timings(), context, () -> {
                GsdkEndpoint e = new GsdkEndpoint(supervisor.sessions(), port, SocketOwners.PROC_NET);
                try {
                    gsdkPort.port = e.start();
                    return e;
                } catch (IOException bind) {
                    e.stop();
                    throw new Transient(bind.getMessage() + "; free that port or set gsdkPort");
                }
            });
            log.info("agent of " + instanceId + " in " + config.gameServerGroupName() + ": GSDK endpoint 127.0.0.1:"
                    + gsdkPort.port + ", " + (sidecar ? "the ECS task's game server container (sidecar; its GSDK config file "
                            + config.gsdkConfigFile() + ")" : config.processes() + " x " + config.command() + " (" + config.mode() + ")"));
            Optional<Sidecar> sidecarRound = Optional.empty();
            if (sidecar) {
                sidecarRound = Optional.of(new Sidecar(supervisor));
            }
            Runnable tick = sidecarRound.<Runnable>map(r -> r::tick).orElse(supervisor::tick);
            Optional<QosBeacon> qosBeacon = config.qosPort() == 0 ? Optional.empty()
                    : QosBeacon.open(new InetSocketAddress(qosAddress(address), config.qosPort()), QosReplyRate.defaults(clock), log);
            qosBeacon.ifPresent(opened::add);

            Runnable round = () -> {
                try {
                    tick.run();
                    if (supervisor.takeChanged()) {
                        stateFile.save(supervisor);
                    }
                } catch (IOException | RuntimeException e) {
                    log.warn("supervision round failed: " + e);
                }
            };
            scheduler.scheduleWithFixedDelay(round, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
            metadata.ifPresent(m -> {
                MaintenanceWatcher watcher = new MaintenanceWatcher(m, instanceId, clock, supervisor::maintenance, log);
                long period = config.timings().metadataPoll().toMillis();
                scheduler.scheduleWithFixedDelay(watcher::poll, 0, period, TimeUnit.MILLISECONDS);
            });
            PushConnection push = null;
            if (config.pushEndpoint() != null) {
                push = new PushConnection(config.pushEndpoint(), instanceId, config.gameServerGroupName(), portOf(qosBeacon),
                        region, credentials, supervisor, scheduler, clock, config.timings().pushPing(),
                        new Backoff(PushConnection.RECONNECT_INITIAL, PushConnection.RECONNECT_MAX, context.jitter()), log);
                supervisor.healthChannel(push);
                ClaimCatchUp.ServerSessions sessions = config.apiEndpoint() == null ? ClaimCatchUp.ServerSessions.NONE
                        : new SessionRoute(config.apiEndpoint(), config.gameServerGroupName(), region, credentials,
                                UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofSeconds(2))
                                        .socketTimeout(Duration.ofSeconds(5)).build());
                push.onOpen(new ClaimCatchUp(api, sessions, supervisor, apiThread, config.timings().claimTtl(), log)).start();
            } else {
                log.warn("no pushEndpoint: claims and operator shutdowns will not reach this agent");
            }
            return new Agent(supervisor, round, endpoint, scheduler, apiThread, lockFile, archive, push, qosBeacon,
                    gsdkPort.port, config.timings().shutdownBudget(), log, sidecarRound);
        } catch (Exception | Error e) {
            for (AutoCloseable resource : opened) {
                try {
                    resource.close();
                } catch (Exception ignored) {
                    // the start's own failure is the one to report
                }
            }
            throw e;
        }
    }

    /** An instance's id and address: the config's, else the instance metadata's, read again with backoff while it fails. */
    private static String[] instanceIdentity(AgentConfig config, Optional<InstanceMetadata> metadata, Context context)
            throws Exception {
        return retried("read the instance metadata", config.timings(), context, () -> {
            try {
                String id = config.instanceId() != null ? config.instanceId()
                        : metadata.get().get(InstanceMetadata.INSTANCE_ID).orElseThrow(() -> new Transient("no instance-id"));
                String address = config.connectionAddress() != null ? config.connectionAddress()
                        : metadata.flatMap(m -> m.get(InstanceMetadata.PUBLIC_IPV4).or(() -> m.get(InstanceMetadata.LOCAL_IPV4)))
                                .orElse(GsdkEndpoint.LOOPBACK);
                return new String[] {id, address};
            } catch (RuntimeException e) {
                throw new Transient(e.getMessage() + "; set instanceId and connectionAddress, or check metadataEndpoint");
            }
        });
    }

    /**
     * A sidecar's instance id and address: the config's when it names both (a sidecar run outside ECS),
     * else its task's, from the task metadata endpoint, read again with backoff while it fails.
     */
    private static String[] taskIdentity(AgentConfig config, Context context, HttpClient http) throws Exception {
        if (config.instanceId() != null && config.connectionAddress() != null) {
            return new String[] {config.instanceId(), config.connectionAddress()};
        }
        TaskMetadata metadata = new TaskMetadata(taskEndpoint(config.taskMetadataEndpoint(), TaskMetadata.ENDPOINT_VARIABLE,
                context.environment(), "reads its instance id and address from its ECS task's metadata (Fargate platform 1.4.0 "
                        + "or later, or the ECS agent on EC2); outside a task, set instanceId and connectionAddress"), http);
        TaskMetadata.Task task = retried("read the task metadata", config.timings(), context, () -> {
            try {
                return metadata.read();
            } catch (java.io.IOException e) {
                throw new Transient(e.getMessage());
            }
        });
        context.log().info("ECS task " + task.taskArn() + " in " + task.availabilityZone() + ": instance " + task.instanceId()
                + ", address " + task.privateIpv4());
        return new String[] {config.instanceId() != null ? config.instanceId() : task.instanceId(),
                config.connectionAddress() != null ? config.connectionAddress() : task.privateIpv4()};
    }

    /**
     * One of the endpoints ECS names in every container of a task: the config's (several sidecars in
     * one JVM, as the local profile may run them), else the environment's {@code variable}.
     */
    private static URI taskEndpoint(URI configured, String variable, java.util.Map<String, String> environment, String why)
            throws StartFailure {
        if (configured != null) {
            return configured;
        }
        String endpoint = environment.get(variable);
        if (endpoint == null || endpoint.isBlank()) {
            throw new StartFailure(variable + " is not set: mode \"sidecar\" " + why);
        }
        return URI.create(endpoint);
    }

    /** What the attempt gives, trying again after 1, 2, 4... s (the API's backoff, jittered) while it fails transiently. */
    private static <T> T retried(String what, AgentConfig.Timings timings, Context context, Attempt<T> attempt) throws Exception {
        Backoff backoff = new Backoff(timings.apiRetryInitial(), timings.apiRetryMax(), context.jitter());
        for (int failures = 1; ; failures++) {
            try {
                return attempt.run();
            } catch (Transient e) {
                Duration delay = backoff.delay(failures);
                context.log().warn("cannot " + what + " (" + e.getMessage() + "); trying again in " + delay.toMillis() + " ms");
                context.sleeper().sleep(delay);
            }
        }
    }

    private interface Attempt<T> {
        T run() throws Exception;
    }

    /**
     * Where the QoS beacon listens: every address, as clients ping the instance's public one; only
     * loopback when the game servers' connection address is loopback (the local profile), which no
     * one off the machine can reach anyway.
     */
    static InetAddress qosAddress(String connectionAddress) throws java.net.UnknownHostException {
        boolean loopback = connectionAddress.matches("127(\\.[0-9]{1,3}){3}") || connectionAddress.equals("::1");
        return loopback ? InetAddress.getByName(connectionAddress) : new InetSocketAddress(0).getAddress();
    }

    /** The QoS beacon's UDP port, if it runs (the port its push connection reports). */
    public java.util.OptionalInt qosPort() {
        return portOf(qosBeacon);
    }

    private static java.util.OptionalInt portOf(Optional<QosBeacon> beacon) {
        return beacon.map(b -> java.util.OptionalInt.of(b.port())).orElse(java.util.OptionalInt.empty());
    }

    public int gsdkPort() {
        return gsdkPort;
    }

    /**
     * Completes once a sidecar's game server is over: deregistered and archived. Never for an
     * instance's agent, whose processes are replaced.
     */
    public java.util.concurrent.CompletableFuture<Void> gameServerOver() {
        return sidecar.map(Sidecar::over).orElseGet(java.util.concurrent.CompletableFuture::new);
    }

    /** Stops the agent and leaves its processes running, as a SIGKILL would (a restart adopts them). */
    @Override
    public void close() throws Exception {
        scheduler.shutdownNow();
        apiThread.shutdownNow();
        scheduler.awaitTermination(5, TimeUnit.SECONDS);
        if (push != null) {
            push.close();
        }
        endpoint.stop();
        if (qosBeacon.isPresent()) {
            qosBeacon.get().close();
        }
        archive.close();
        lockFile.close();
    }

    /**
     * Stops the agent and its processes with the graceful sequence (docs/agent.md, "Graceful ends"):
     * every process is told Terminate at once, gets TERM {@code terminateNoticeSeconds} later and KILL
     * {@code stopGraceSeconds} after that, and is deregistered and archived as it ends. It returns once
     * that is done (a deregistration that failed is left to Gamefleet's health timeout), or when
     * {@code shutdownBudgetSeconds} have passed: what still runs then is KILLed and archived as it is.
     * The JVM's shutdown hook (SIGTERM: systemd's stop) and the local profile's agents' JVM call it.
     */
    public void shutdown() throws Exception {
        synchronized (this) {
            if (shutDown) {
                return;
            }
            shutDown = true;
        }
        Instant deadline = Instant.now().plus(shutdownBudget);
        supervisor.agentStops();
        while (!supervisor.settled() && Instant.now().isBefore(deadline)) {
            Thread.sleep(TICK.toMillis()); // the rounds go on on the scheduler; real processes ending
        }
        if (!supervisor.settled()) {
            List<GameProcess> running;
            synchronized (supervisor.lock) {
                running = supervisor.servers().map(s -> s.process).filter(p -> p != null && p.isAlive()).toList();
            }
            log.warn("the shutdown budget (" + shutdownBudget.toMillis() / 1000.0 + " s) ran out: " + running.size()
                    + " process(es) still running are KILLed; what is not deregistered is left to Gamefleet's health timeout");
            running.forEach(GameProcess::kill);
            Instant killed = Instant.now();
            while (running.stream().anyMatch(GameProcess::isAlive) && Instant.now().isBefore(killed.plusSeconds(2))) {
                Thread.sleep(50); // the kernel reaping them
            }
            round.run(); // archived as they are
        }
        close();
    }

    /**
     * The instance metadata, unless there is none: with no metadataEndpoint and
     * AWS_EC2_METADATA_DISABLED=true (off EC2, as in the tests), the agent reads none.
     */
    private static Optional<InstanceMetadata> metadata(AgentConfig config, java.util.Map<String, String> environment) {
        boolean disabled = "true".equalsIgnoreCase(environment.get("AWS_EC2_METADATA_DISABLED"));
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
