package io.gamefleet.agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The supervisor with real child processes, wired as the agent wires it: the setsid and setpriv
 * launcher, each process a uid of its own where this JVM may give one (root), the GSDK endpoint on
 * Jetty asking the kernel who calls, the state file saved each round. FleetIQ is the fake, and the
 * timeouts run on the test's clock (the processes run in real time).
 */
final class RealAgent implements AutoCloseable {
    final AgentConfig config;
    final Supervisor supervisor;
    private final GsdkEndpoint endpoint;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();

    /** {@code agentEnvironment}: the agent's own, of which a process gets the allow-list only. */
    RealAgent(AgentConfig config, MutableClock clock, FakeFleetApi api, List<String> log, Map<String, String> agentEnvironment)
            throws Exception {
        this.config = config;
        AgentLog agentLog = new AgentLog(clock, log::add);
        ServerUsers users = ServerUsers.decide(config, Privileges.ofThisProcess(), agentLog);
        ServerFolders folders = new ServerFolders(config.workDirectory(), config.serversDirectory());
        folders.prepare();
        GameServerLaunch launch = new GameServerLaunch(config, "i-1", "127.0.0.1", folders, agentEnvironment);
        AgentMain.PortHolder gsdkPort = new AgentMain.PortHolder();
        supervisor = new Supervisor(config, "i-1", clock, new SetsidProcessLauncher(System.getenv("PATH")), launch, users, api,
                Runnable::run, new OutputReadiness(config.wrapper(), launch),
                new FolderLogArchive(config.archiveDirectory(), "g", "i-1", config.archiveMaxBytes(), agentLog), agentLog, gsdkPort,
                Supervisor.Backoffs.of(config.timings(), Backoff.NO_JITTER));
        endpoint = new GsdkEndpoint(supervisor.sessions(), 0, SocketOwners.PROC_NET);
        gsdkPort.port = endpoint.start();
        StateFile stateFile = new StateFile(config.workDirectory());
        ticker.scheduleWithFixedDelay(() -> {
            supervisor.tick();
            try {
                if (supervisor.takeChanged()) {
                    stateFile.save(supervisor);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, 0, 20, TimeUnit.MILLISECONDS);
    }

    ServerRecord current(int slot) {
        synchronized (supervisor.lock) {
            return supervisor.slots()[slot].current;
        }
    }

    /** Stops the rounds, KILLs every process still running, and the endpoint. */
    @Override
    public void close() throws Exception {
        ticker.shutdownNow();
        ticker.awaitTermination(5, TimeUnit.SECONDS);
        synchronized (supervisor.lock) {
            supervisor.servers().filter(s -> s.process != null && s.process.isAlive()).forEach(s -> s.process.kill());
        }
        endpoint.stop();
    }
}
