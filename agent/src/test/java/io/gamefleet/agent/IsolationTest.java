package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compromised game server, tried for real: the agent's supervisor, GSDK endpoint (the kernel's
 * socket owners) and launcher in per-server mode, with real processes of their own uids. Slot 1
 * runs a hostile server ({@code hostile_gsdk_server.py}) that looks at what it was given, reads
 * what it can, and heartbeats its sibling's session. Needs root (to give processes other uids).
 */
class IsolationTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Secrets in the agent's own environment, none of which a process may get. */
    private static final Map<String, String> SECRETS = Map.of("AWS_ACCESS_KEY_ID", "AKIAAGENTKEYID", "AWS_SECRET_ACCESS_KEY",
            "agent-secret-access-key", "AWS_SESSION_TOKEN", "agent-session-token", "GAMEFLEET_LOCAL_TOKEN", "local-token-value");
    /** What a process's environment may hold besides LC_*: the allow-list, the GSDK's variables, the config's env. */
    private static final Set<String> ALLOWED = Set.of("PATH", "LANG", "TZ", "HOME", "TMPDIR", "GSDK_CONFIG_FILE", "PF_TITLE_ID",
            "PF_BUILD_ID", "PF_REGION", "PF_VM_ID", "PF_SERVER_INSTANCE_NUMBER", "PF_SERVER_LOG_DIRECTORY",
            "PF_SERVER_DUMP_DIRECTORY", "PF_SHARED_CONTENT_FOLDER", "CERTIFICATE_FOLDER", "PF_PUBLIC_IPV4_ADDRESS", "PF_FQDN",
            "GAMEFLEET_GAME_SERVER_ID", "GAMEFLEET_GAME_SERVER_GROUP_NAME", "GAMEFLEET_PORT_GAME", "GAME_MODE");

    @TempDir Path work;
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
    private final FakeFleetApi api = new FakeFleetApi();
    private final List<String> log = new java.util.concurrent.CopyOnWriteArrayList<>();
    private AgentConfig config;
    private RealAgent agent;
    private Supervisor supervisor;

    @BeforeEach
    void perServer() {
        Assumptions.assumeTrue(ChildJvm.canSwitchUsers(), "gives each process a uid of its own: needs root (or CAP_SETUID and CAP_SETGID)");
    }

    private void start(String mode, List<String> command, String extra) throws Exception {
        ChildJvm.traversable(work);
        int port = ChildJvm.freePort();
        ObjectNode c = JSON.createObjectNode().put("gameServerGroupName", "g").put("instanceId", "i-1")
                .put("region", "us-east-1").put("connectionAddress", "127.0.0.1").put("command", command.get(0))
                .put("processes", 2).put("mode", mode).put("workDirectory", work.resolve("agent").toString())
                .put("serversDirectory", work.resolve("servers").toString());
        ArrayNode args = c.putArray("args");
        command.subList(1, command.size()).forEach(args::add);
        c.putObject("ports").putObject("game").put("from", port).put("to", port + 1);
        c.putObject("env").put("GAME_MODE", "ranked");
        c.putObject("timings").put("stopGraceSeconds", 5);
        c.setAll((ObjectNode) JSON.readTree(extra));
        config = AgentConfigReader.parse("test", c.toString());
        Map<String, String> agentEnvironment = new TreeMap<>(System.getenv());
        agentEnvironment.putAll(SECRETS);
        agent = new RealAgent(config, clock, api, log, agentEnvironment);
        supervisor = agent.supervisor;
        assertThat(supervisor.users().perServer()).isTrue();
    }

    @AfterEach
    void stop() throws Exception {
        if (agent != null) {
            agent.close();
        }
    }

    private ServerRecord current(int slot) {
        return agent.current(slot);
    }

    private ServerRecord registered(int slot) {
        ChildJvm.await("slot " + slot + " registered", () -> current(slot) != null && api.registered.containsKey(current(slot).gameServerId));
        return current(slot);
    }

    private static JsonNode printed(ServerRecord s, String tag) {
        Path console = s.logFolder().resolve(GameServerLaunch.CONSOLE_LOG);
        ChildJvm.await(tag + " in " + s.gameServerId + "'s console", () -> ChildJvm.read(console).contains(tag + " "));
        String line = ChildJvm.read(console).lines().filter(l -> l.startsWith(tag + " ")).findFirst().orElseThrow();
        try {
            return JSON.readTree(line.substring(tag.length() + 1));
        } catch (java.io.IOException e) {
            throw new AssertionError(line, e);
        }
    }

    private void hostileServers() throws Exception {
        Path script = Path.of(System.getProperty("gamefleet.agent.test-classes"), "hostile_gsdk_server.py");
        start("gsdk", List.of("python3", "-u", script.toString(), work.resolve("targets-{serverInstanceNumber}.json").toString()), "{}");
    }

    @Test
    void aProcessGetsTheAllowListAndItsOwnUidWithNoGroupAndNoCapability() throws Exception {
        hostileServers();
        ServerRecord s = registered(1);
        JsonNode given = printed(s, "GIVEN");
        Map<String, String> env = JSON.convertValue(given.path("env"), new com.fasterxml.jackson.core.type.TypeReference<>() {});
        assertThat(env.keySet()).allMatch(k -> ALLOWED.contains(k) || k.startsWith("LC_"), "allowed");
        assertThat(env.values()).noneMatch(v -> SECRETS.values().stream().anyMatch(v::contains));
        assertThat(env.values()).noneMatch(v -> v.contains(s.sessionHostId));
        assertThat(env).containsEntry("HOME", s.folder.toString()).containsEntry("TMPDIR", s.folder.toString())
                .containsEntry("GAME_MODE", "ranked").containsEntry("PATH", System.getenv("PATH"));
        JsonNode status = given.path("status");
        assertThat(status.path("Uid").asText().split("\\s+")).containsOnly("61001");
        assertThat(status.path("Gid").asText().split("\\s+")).containsOnly("61001");
        assertThat(status.path("Groups").asText()).isEmpty();
        for (String set : List.of("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")) {
            assertThat(status.path(set).asText()).as(set).isEqualTo("0000000000000000");
        }
        assertThat(status.path("NoNewPrivs").asText()).isEqualTo("1");
    }

    /**
     * Under systemd the agent is not root but {@code gamefleet} with the unit's ambient capabilities,
     * which a change from one nonzero uid to another keeps: the launcher's own setpriv line, run from
     * exactly that state, must still leave the process none.
     */
    @Test
    void fromTheUnitsAmbientCapabilitiesAProcessEndsWithNone() throws Exception {
        String unit = "+setuid,+setgid,+chown,+fowner,+dac_override,+kill";
        for (String caps : List.of(unit, unit + ",+setpcap")) {
            List<String> command = new java.util.ArrayList<>(List.of("setpriv", "--reuid=999", "--regid=999", "--clear-groups",
                    "--inh-caps=" + caps, "--ambient-caps=" + caps, "--no-new-privs", "--")); // the unit's agent
            command.addAll(SetsidProcessLauncher.asUser(61002));
            command.addAll(List.of("cat", "/proc/self/status"));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String status = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as(status).isZero();
            assertThat(status).containsPattern("Uid:\\s+61002\\s+61002\\s+61002\\s+61002").contains("NoNewPrivs:\t1");
            for (String set : List.of("CapInh", "CapPrm", "CapEff", "CapAmb")) {
                assertThat(status).as(caps + " " + set).contains(set + ":\t0000000000000000");
            }
            // The bounding set is emptied only with CAP_SETPCAP (the agent says so at start without it).
            assertThat(status.contains("CapBnd:\t0000000000000000")).as(caps + " CapBnd").isEqualTo(caps.contains("setpcap"));
        }
    }

    @Test
    void aCompromisedProcessCannotReadTheAgentsFilesOrItsSiblingsNorActForItsSiblingsSession() throws Exception {
        hostileServers();
        ServerRecord sibling = registered(0);
        ServerRecord hostile = registered(1);
        Path siblingConfig = sibling.folder.resolve("config").resolve(GameServerLaunch.GSDK_CONFIG);
        Path stateFile = config.workDirectory().resolve(StateFile.NAME);
        ChildJvm.await("the state file", () -> Files.exists(stateFile));
        Map<String, String> expected = new java.util.LinkedHashMap<>();
        expected.put(stateFile.toString(), "PermissionError");
        expected.put(config.workDirectory().toString(), "PermissionError");
        expected.put(config.serversDirectory().toString(), "PermissionError"); // not listable: no sibling's id to find
        expected.put(sibling.folder.toString(), "PermissionError");
        expected.put(siblingConfig.toString(), "PermissionError");
        expected.put(sibling.logFolder().resolve(GameServerLaunch.CONSOLE_LOG).toString(), "PermissionError");
        expected.put("/proc/" + ProcessHandle.current().pid() + "/environ", "PermissionError");
        expected.put("/proc/" + sibling.process.pid() + "/environ", "PermissionError");
        // What it may read, so that a refusal above is not the probe failing to read anything.
        expected.put(hostile.folder.resolve("config").resolve(GameServerLaunch.GSDK_CONFIG).toString(), "read");
        expected.put(config.serversDirectory().resolve(ServerFolders.SHARED).toString(), "read");
        ObjectNode targets = JSON.createObjectNode();
        expected.keySet().forEach(targets.putArray("read")::add);
        targets.putArray("sessions").add(sibling.sessionHostId);
        Path file = Files.writeString(work.resolve("targets-1.json"), targets.toString());
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        JsonNode tried = printed(hostile, "TRIED");
        expected.forEach((path, outcome) -> assertThat(tried.path("read").path(path).asText()).as(path).isEqualTo(outcome));
        JsonNode beat = tried.path("beat").path(sibling.sessionHostId);
        assertThat(beat.get(0).asInt()).isEqualTo(403);
        assertThat(beat.get(1).path("error").asText()).isEqualTo("NotYourSession");
        synchronized (supervisor.lock) {
            assertThat(sibling.state).isEqualTo(GameState.StandingBy);
            assertThat(sibling.stopping()).isFalse();
        }
        assertThat(api.registered).containsEntry(sibling.gameServerId, "AVAILABLE");
        // Nor does a caller of yet another uid (this JVM's, root) pass as the sibling.
        java.net.http.HttpResponse<String> root = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + supervisor.gsdkPort() + "/v1/sessionHosts/" + sibling.sessionHostId))
                .method("PATCH", java.net.http.HttpRequest.BodyPublishers.ofString("{\"CurrentGameState\":\"Terminated\"}")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(root.statusCode()).isEqualTo(403);
        assertThat(sibling.stopping()).isFalse();
    }

    @Test
    void theAgentsFilesAreItsAloneAndEachProcesssFolderIsItsUids() throws Exception {
        hostileServers();
        ServerRecord s = registered(1);
        Path stateFile = config.workDirectory().resolve(StateFile.NAME);
        ChildJvm.await("the state file", () -> Files.exists(stateFile));
        assertThat(mode(config.workDirectory())).isEqualTo("rwx------");
        assertThat(mode(stateFile)).isEqualTo("rw-------");
        assertThat(mode(config.serversDirectory())).isEqualTo("rwx--x--x");
        assertThat(mode(config.serversDirectory().resolve(ServerFolders.SHARED))).isEqualTo("rwxr-xr-x");
        Path gsdkConfig = s.folder.resolve("config").resolve(GameServerLaunch.GSDK_CONFIG);
        for (Path own : List.of(s.folder, s.logFolder(), s.folder.resolve("config"))) {
            assertThat(mode(own)).as(own.toString()).isEqualTo("rwx------");
            assertThat(Files.getAttribute(own, "unix:uid")).as(own.toString()).isEqualTo(61001);
        }
        assertThat(mode(gsdkConfig)).isEqualTo("rw-------");
        assertThat(Files.getAttribute(gsdkConfig, "unix:uid")).isEqualTo(61001);
        assertThat(Files.getAttribute(gsdkConfig, "unix:gid")).isEqualTo(61001);
    }

    private static String mode(Path p) throws java.io.IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void whatAProcessLeftRunningOutsideItsProcessGroupEndsWithIt() throws Exception {
        // setsid: the child leads a session of its own, beyond the reach of TERM and KILL to the group.
        start("wrapper", List.of("sh", "-c", "setsid sleep 600 </dev/null >/dev/null 2>&1 & echo \"ESCAPED $!\"; exec sleep 600"),
                "{\"wrapper\": {\"readyLine\": \"^ESCAPED\"}}");
        ServerRecord s = registered(1);
        long escaped = Long.parseLong(ChildJvm.read(s.logFolder().resolve(GameServerLaunch.CONSOLE_LOG)).lines()
                .filter(l -> l.startsWith("ESCAPED ")).findFirst().orElseThrow().substring(8).trim());
        assertThat(ProcessHandle.of(escaped).map(ProcessHandle::isAlive)).hasValue(true);
        assertThat(ProcessStat.realUid(escaped)).hasValue(61001);
        supervisor.terminate(new Notices.Terminate(s.gameServerId, "operator"));
        ChildJvm.await("the escaped process killed with its slot's uid", () -> ProcessHandle.of(escaped).map(h -> !h.isAlive()).orElse(true));
        assertThat(ProcessHandle.of(registered(0).process.pid()).map(ProcessHandle::isAlive)).as("slot 0, another uid, runs on").hasValue(true);
    }
}
