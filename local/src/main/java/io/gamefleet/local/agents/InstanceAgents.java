package io.gamefleet.local.agents;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.local.edge.EdgeServer;
import io.gamefleet.local.fleet.SimulatedFleet;
import io.gamefleet.local.fleet.SimulatedFleet.RunningInstance;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The agent of every simulated instance, with real game server processes: when an instance comes into
 * service its agent starts, with ports of its own and the instance's metadata endpoint, where it finds
 * its instance profile's keys (a GAME_SERVER principal bound to the instance, which the edge makes and
 * takes back when the instance ends); when the instance ends, its agent is stopped (TERM, grace, KILL
 * of each game server's process group).
 *
 * <p>The agents run in one child JVM ({@code AgentHostMain} of the agent jar, which is built on the
 * GameLift client's SDK and cannot share this JVM's classpath): one JVM's start-up, JIT and heap on a
 * 2-core machine rather than one per instance, and a new instance's agent starts in milliseconds.
 * That JVM is told what to do on its stdin, so it stops every agent and game server when this JVM
 * ends, however it ends (the pipe closes even on SIGKILL); if it dies itself, it is started again and
 * the agents adopt their running processes from their state files, as after a systemd restart.
 *
 * <p>Run as root, each instance's agent runs each of its processes as a uid of its own, as on an
 * instance: a block of {@code processes} uids from 61000 per instance in service ({@link UidBlocks}:
 * none another profile on this machine has), and the processes' folders in a servers folder of their own that
 * their uids may traverse (the run's folder stays the profile's alone). Run as a user, the agents
 * cannot switch users, and the profile says once that the game servers are not isolated.
 */
public final class InstanceAgents implements AutoCloseable {
    private static final long PERIOD_MS = 200;
    private static final int FIRST_PORT = 30000;
    private static final int LAST_PORT = 60000;
    private static final long HOST_STOP_SECONDS = 30;
    /** The agent's own default runAsUidBase: the first instance's processes get the uids an instance's would. */
    private static final int FIRST_UID = 61000;
    /** Below nobody's 65534: the last uid a block may reach. */
    private static final int LAST_UID = 65533;

    private record Running(RunningInstance instance, Path config, int firstUid) {}

    private final AgentTemplate template;
    private final SimulatedFleet fleet;
    private final EdgeServer edge;
    private final Path folder;
    private final Path agentJar;
    private final Path serversFolder;
    private final AgentTemplate.Stage stage;
    private final boolean keepServersFolder;
    private final Consumer<String> log;
    private final Map<String, Running> running = new LinkedHashMap<>();
    /** The uids of the instances' processes, a block an instance, none another profile on this machine has. */
    private final UidBlocks uids;
    private final Thread thread;
    private Process host;
    private OutputStream commands;
    private int nextPort = FIRST_PORT;
    private volatile boolean closed;

    private InstanceAgents(AgentTemplate template, SimulatedFleet fleet, EdgeServer edge, Path folder, Path agentJar,
            Path serversFolder, AgentTemplate.Stage stage, boolean keepServersFolder, Consumer<String> log) {
        this.template = template;
        this.fleet = fleet;
        this.edge = edge;
        this.folder = folder;
        this.agentJar = agentJar;
        this.serversFolder = serversFolder;
        this.stage = stage;
        this.keepServersFolder = keepServersFolder;
        this.log = log;
        this.uids = UidBlocks.shared(FIRST_UID, LAST_UID, template.processes());
        this.thread = new Thread(this::watch, "instance-agents");
        thread.setDaemon(true);
    }

    /**
     * Starts the agents' JVM and follows the fleet from now on; {@code folder} holds their work
     * directories and archive, and the processes' folders are in a temporary folder of their own
     * (removed when this closes, unless {@code keepServersFolder}); {@code stage} is the profile's.
     */
    public static InstanceAgents start(AgentTemplate template, SimulatedFleet fleet, EdgeServer edge, Path folder,
            Path agentJar, AgentTemplate.Stage stage, boolean keepServersFolder, Consumer<String> log) {
        if (!Files.isRegularFile(agentJar)) {
            throw new IllegalStateException("the agent jar " + agentJar + " is not built; build it with"
                    + " `mvn -pl agent -am package -DskipTests` (local/run does it for you)");
        }
        Path serversFolder;
        try {
            // 0711: each process's uid reaches its own folder by its name, and lists nothing.
            serversFolder = Files.setPosixFilePermissions(Files.createTempDirectory("gamefleet-servers-"),
                    PosixFilePermissions.fromString("rwx--x--x"));
        } catch (IOException e) {
            throw new IllegalStateException("cannot create the game servers' folder: " + e.getMessage(), e);
        }
        if (!runsAsRoot()) {
            log.accept("local profile: not run as root, so every game server runs as " + System.getProperty("user.name")
                    + ", like the agents: they are NOT isolated from each other (run local/run as root for a uid per game "
                    + "server, as on an instance)");
        }
        InstanceAgents agents = new InstanceAgents(template, fleet, edge, folder, agentJar, serversFolder, stage,
                keepServersFolder, log);
        try {
            agents.startHost();
        } catch (IOException e) {
            throw new IllegalStateException("the agents' JVM cannot start: " + e.getMessage(), e);
        }
        agents.thread.start();
        return agents;
    }

    /** Where ended game servers' logs go: {@code <group>/<instance>/<game server id>/}. */
    public Path archive() {
        return folder.resolve("archive");
    }

    /** The JAR the agents' JVM runs. */
    public Path jar() {
        return agentJar;
    }

    /** Each instance's agent folder, {@code <instanceId>/}: its state file, lock and configuration. */
    public Path instancesFolder() {
        return folder.resolve("instances");
    }

    /** Each instance's running game servers' folders, {@code <instanceId>/<gameServerId>/}. */
    public Path serversFolder() {
        return serversFolder;
    }

    /** Whether this JVM, and so the agents' JVM, runs as root: the agents then give each process a uid of its own. */
    public static boolean runsAsRoot() {
        try {
            return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue() == 0;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** The instances whose agent runs now. */
    public synchronized Set<String> instances() {
        return Set.copyOf(running.keySet());
    }

    private void watch() {
        while (!closed) {
            try {
                reconcile();
            } catch (IOException | RuntimeException e) {
                log.accept("local profile: following the instances' agents failed: " + e);
            }
            try {
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void reconcile() throws IOException {
        if (closed) {
            return;
        }
        if (!host.isAlive()) {
            log.accept("local profile: the agents' JVM exited with code " + host.exitValue() + "; starting it again"
                    + " (the agents adopt their game servers)");
            startHost();
            for (Running r : running.values()) {
                send(startCommand(r));
            }
        }
        Set<String> now = new HashSet<>();
        for (RunningInstance instance : fleet.inService()) {
            if (!template.runsOn(instance.gameServerGroupName())) {
                continue;
            }
            now.add(instance.instanceId());
            if (!running.containsKey(instance.instanceId())) {
                begin(instance);
            }
        }
        for (String gone : new ArrayList<>(running.keySet())) {
            if (!now.contains(gone)) {
                Running r = running.remove(gone);
                uids.release(r.firstUid());
                send(AgentTemplate.json().createObjectNode().put("stop", gone));
            }
        }
    }

    private void begin(RunningInstance instance) throws IOException {
        String id = instance.instanceId();
        Path work = instancesFolder().resolve(id);
        // The agent's alone before it starts: agent.json holds the instance's metadata secret.
        Files.createDirectories(work);
        Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwx------"));
        List<Integer> ports = new ArrayList<>();
        for (String ignored : template.portNames()) {
            ports.add(freePorts(template.processes()));
        }
        // Its QoS beacon on a loopback port of its own, as each instance has 3075 to itself in AWS.
        int qosPort = freePorts(1);
        int firstUid = uids.acquire();
        ObjectNode config = template.forInstance(instance.gameServerGroupName(), id, ports, qosPort, edge.endpoint(),
                edge.pushEndpoint(), edge.metadataEndpoint(id), work, serversFolder.resolve(id), archive(),
                firstUid, stage);
        Path file = work.resolve("agent.json");
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        AgentTemplate.json().writerWithDefaultPrettyPrinter().writeValue(file.toFile(), config);
        Running r = new Running(instance, file, firstUid);
        running.put(id, r);
        send(startCommand(r));
    }

    private static ObjectNode startCommand(Running r) {
        return AgentTemplate.json().createObjectNode().put("start", r.instance().instanceId())
                .put("config", r.config().toString());
    }

    private void send(ObjectNode command) throws IOException {
        commands.write((command.toString() + "\n").getBytes(StandardCharsets.UTF_8));
        commands.flush();
    }

    /** The first of {@code count} consecutive free loopback ports, none handed out before (until the band wraps). */
    private int freePorts(int count) {
        for (int tries = 0; tries < (LAST_PORT - FIRST_PORT); tries++) {
            if (nextPort + count > LAST_PORT) {
                nextPort = FIRST_PORT;
            }
            int from = nextPort;
            nextPort += count;
            if (allFree(from, count)) {
                return from;
            }
        }
        throw new IllegalStateException("no " + count + " consecutive free loopback ports from " + FIRST_PORT + " to " + LAST_PORT);
    }

    private static boolean allFree(int from, int count) {
        for (int p = from; p < from + count; p++) {
            try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
                // free
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }

    private void startHost() throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // Jetty's start and stop lines, once per instance's GSDK endpoint, would bury the agents' own.
        ProcessBuilder builder = new ProcessBuilder(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dorg.eclipse.jetty.LEVEL=WARN", "-cp", agentJar.toString(), "io.gamefleet.agent.AgentHostMain")
                .redirectErrorStream(true);
        builder.environment().put("AWS_EC2_METADATA_DISABLED", "true");
        host = builder.start();
        commands = host.getOutputStream();
        Process started = host;
        Thread output = new Thread(() -> forward(started), "agents-output");
        output.setDaemon(true);
        output.start();
    }

    /** The agents' log lines, each prefixed, into the profile's log. */
    private void forward(Process p) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                log.accept("agent: " + line);
            }
        } catch (IOException e) {
            // the JVM ended
        }
    }

    /**
     * Stops every agent and its game servers: the agents' JVM sees its stdin close and stops them
     * (TERM, grace, KILL); whatever is left after {@value #HOST_STOP_SECONDS} s is killed.
     */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        thread.interrupt();
        List<ProcessHandle> descendants = host.toHandle().descendants().toList();
        try {
            commands.close();
            if (!host.waitFor(HOST_STOP_SECONDS, TimeUnit.SECONDS)) {
                host.destroyForcibly();
            }
        } catch (IOException e) {
            host.destroyForcibly();
        } catch (InterruptedException e) {
            host.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        synchronized (this) {
            running.clear();
        }
        uids.close();
        if (!keepServersFolder) {
            try (var paths = Files.walk(serversFolder)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                log.accept("local profile: " + serversFolder + " could not be removed: " + e.getMessage());
            }
        }
    }
}
