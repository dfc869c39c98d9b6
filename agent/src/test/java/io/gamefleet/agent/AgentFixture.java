package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** One agent in-process: fake clock, fake processes, fake FleetIQ, the real supervisor. */
final class AgentFixture {
    static final ObjectMapper JSON = new ObjectMapper();
    /** The agent's own environment: what a process may get of it, and secrets it must not. */
    static final java.util.Map<String, String> AGENT_ENVIRONMENT = java.util.Map.of("PATH", "/usr/bin:/bin", "LANG", "C.UTF-8",
            "LC_TIME", "en_GB.UTF-8", "TZ", "UTC", "HOME", "/root", "AWS_SECRET_ACCESS_KEY", "agent-secret",
            "AWS_ACCESS_KEY_ID", "AKIAAGENT", "GAMEFLEET_LOCAL_TOKEN", "local-token", "USER", "root");

    final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
    final FakeProcesses processes = new FakeProcesses();
    final FakeFleetApi api = new FakeFleetApi();
    final Set<String> ready = new HashSet<>();
    final List<String> log = new ArrayList<>();
    final AgentConfig config;
    final Supervisor supervisor;
    final Path work;
    final ServerFolders folders;

    /** The API's calls waiting for {@link #runApiCalls} when they are queued, as on the agent's own thread. */
    final java.util.Queue<Runnable> queuedApiCalls = new java.util.ArrayDeque<>();

    AgentFixture(Path work, String overrides) throws Exception {
        this(work, overrides, false);
    }

    /** {@code apiCallsQueued}: each API call completes only when the test runs it, after the round that made it. */
    AgentFixture(Path root, String overrides, boolean apiCallsQueued) throws Exception {
        this(root, overrides, apiCallsQueued, null);
    }

    /** {@code users}: the processes' uids, or null for the configuration's runAs (the agent's user unless per-server). */
    AgentFixture(Path root, String overrides, boolean apiCallsQueued, ServerUsers users) throws Exception {
        this.work = root.resolve("agent");
        ObjectNode c = (ObjectNode) JSON.readTree("""
                {"gameServerGroupName": "g", "instanceId": "i-1", "region": "us-east-1",
                 "connectionAddress": "10.0.0.5", "command": "/opt/game/server",
                 "args": ["--port", "{port:game}", "--id", "{gameServerId}", "--logs", "{logFolder}"],
                 "processes": 2, "ports": {"game": {"from": 7000, "to": 7009}, "query": {"from": 8000, "to": 8001}},
                 "gsdkPort": 56001, "titleId": "T1", "buildId": "B1"}
                """);
        c.put("workDirectory", work.toString());
        c.put("serversDirectory", root.resolve("servers").toString());
        c.setAll((ObjectNode) JSON.readTree(overrides));
        config = AgentConfigReader.parse("test", c.toString());
        AgentLog agentLog = new AgentLog(clock, log::add);
        folders = new ServerFolders(config.workDirectory(), config.serversDirectory());
        folders.prepare();
        GameServerLaunch launch = new GameServerLaunch(config, "i-1", "10.0.0.5", folders, AGENT_ENVIRONMENT);
        if (users == null) {
            users = config.runAs() == AgentConfig.RunAs.PER_SERVER
                    ? ServerUsers.perServer(config.runAsUidBase(), config.processes()) : ServerUsers.agent();
        }
        supervisor = new Supervisor(config, "i-1", clock, processes, launch, users, api,
                apiCallsQueued ? queuedApiCalls::add : Runnable::run,
                s -> ready.contains(s.gameServerId), new FolderLogArchive(config.archiveDirectory(), "g", "i-1",
                        config.archiveMaxBytes(), agentLog),
                agentLog, () -> 56001, Supervisor.Backoffs.of(config.timings(), Backoff.NO_JITTER));
    }

    AgentFixture(Path work) throws Exception {
        this(work, "{}");
    }

    /** This agent's push connection to {@code endpoint}, on its clock, with its log; it reconnects without jitter. */
    PushConnection pushConnection(java.net.URI endpoint, software.amazon.awssdk.auth.credentials.AwsCredentialsProvider credentials,
            java.util.concurrent.ScheduledExecutorService scheduler, java.time.Duration pingPeriod) {
        return pushConnection(endpoint, credentials, scheduler, pingPeriod,
                new Backoff(PushConnection.RECONNECT_INITIAL, PushConnection.RECONNECT_MAX, Backoff.NO_JITTER));
    }

    /** The same, reconnecting on {@code backoff}. */
    PushConnection pushConnection(java.net.URI endpoint, software.amazon.awssdk.auth.credentials.AwsCredentialsProvider credentials,
            java.util.concurrent.ScheduledExecutorService scheduler, java.time.Duration pingPeriod, Backoff backoff) {
        return new PushConnection(endpoint, "i-1", "g", java.util.OptionalInt.empty(), "us-east-1", credentials, supervisor,
                scheduler, clock, pingPeriod, backoff, new AgentLog(clock, log::add));
    }

    ServerRecord server(int slot) {
        return supervisor.slots()[slot].current;
    }

    void tick() {
        supervisor.tick();
    }

    /** The agent's round: a tick, then the state file written if anything worth keeping changed. */
    void tickAndSave() throws java.io.IOException {
        supervisor.tick();
        if (supervisor.takeChanged()) {
            new StateFile(work).save(supervisor);
        }
    }

    void runApiCalls() {
        while (!queuedApiCalls.isEmpty()) {
            queuedApiCalls.remove().run();
        }
    }

    /** The slot's process reports StandingBy; the round submits its registration and saves. */
    ServerRecord reportsStandingBy(int slot) throws java.io.IOException {
        ServerRecord s = server(slot);
        reply(s, GameState.Initializing);
        reply(s, GameState.StandingBy);
        tickAndSave();
        return s;
    }

    void advance(double seconds) {
        clock.advanceSeconds(seconds);
        tick();
    }

    /** {@code seconds} of heartbeats, one a second, each followed by a supervision round. */
    void beatFor(ServerRecord s, GameState state, int seconds) {
        for (int i = 0; i < seconds; i++) {
            advance(1);
            reply(s, state);
        }
        tick();
    }

    GsdkAnswer beat(ServerRecord s, GameState state) {
        return supervisor.sessions().heartbeat(s.sessionHostId, new Heartbeat(state, true, List.of()));
    }

    ObjectNode reply(ServerRecord s, GameState state) {
        GsdkAnswer a = beat(s, state);
        assertThat(a).isInstanceOf(GsdkAnswer.Reply.class);
        return ((GsdkAnswer.Reply) a).body();
    }

    /** Brings the process of the slot to StandingBy and registered. */
    ServerRecord standingBy(int slot) {
        ServerRecord s = server(slot);
        reply(s, GameState.Initializing);
        reply(s, GameState.StandingBy);
        tick();
        assertThat(api.registered).containsKey(s.gameServerId);
        return s;
    }

    Notices.Claimed claim(ServerRecord s, String data) {
        Instant now = clock.instant();
        Notices.Claimed n = new Notices.Claimed(s.gameServerId, data, now, now.plusSeconds(60));
        supervisor.claimed(n);
        return n;
    }
}
