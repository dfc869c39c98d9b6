package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GameServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/agent-user-data.sh} run for real on a simulated instance of the local profile: the
 * region and instance id from the instance's IMDSv2 ({@code /_local/imds/<instanceId>/<secret>/}), the
 * jar copied from a path in place of S3 and checked against its SHA-256, {@code agent.json} written,
 * and, with no systemd here, the agent started under the script's restart loop: it registers the
 * scripted GSDK server and reports its health over its push connection, signing with the keys the
 * instance's metadata hands it (the SDK's default chain, as on EC2); SIGKILLed, it is started again and
 * adopts the match. A jar of another SHA-256 is neither installed nor started. As root, the metadata
 * rule is tried in a network namespace of its own, and the unit's capabilities under
 * {@code NoNewPrivileges}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AgentUserDataTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension().inRealTime()
            .localOnly("a simulated instance's metadata and principal");

    private static final String GROUP = "userdata";
    private static final Duration PATIENCE = Duration.ofSeconds(40);
    private static final Path REPOSITORY = Path.of(System.getProperty("gamefleet.agent.test-resources"), "../../../..")
            .normalize();
    private static final Path SCRIPT = REPOSITORY.resolve("scripts/agent-user-data.sh");

    @TempDir
    static Path root;
    private static String instance;
    private static Process install;
    private static String installOutput;

    private final GamefleetClient admin = LOCAL.admin();

    @BeforeAll
    static void theScriptRunsOnANewInstance() throws Exception {
        Assumptions.assumeTrue(runs("python3", "--version") && runs("curl", "--version") && runs("setsid", "--version"),
                "python3 (the scripted GSDK server), curl and setsid (the script) are needed and not all on PATH");
        Path jar = REPOSITORY.resolve("agent/target/gamefleet-agent.jar");
        assertThat(jar).as("the agent jar: build it with mvn -pl local -am verify").isRegularFile();
        // The instance's root: as on an instance, the game servers' uids (run as root, the agent switches to them)
        // traverse it to their folders in var/lib/gamefleet-servers and read their end files.
        Files.setPosixFilePermissions(root, java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
        LOCAL.admin().createActive(GamefleetClient.groupBody(GROUP, 1, 1));
        instance = LOCAL.profile().fleet().instancesOf(GROUP).get(0).instanceId();
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        String gameServer = "\"command\": \"python3\", \"args\": [\"-u\", \""
                + Path.of(System.getProperty("gamefleet.agent.test-resources"), "scripted_gsdk_server.py")
                + "\", \"" + root.resolve("over-{gameServerId}") + "\"], \"gsdkPort\": 0, "
                + "\"ports\": {\"game\": {\"from\": " + port + ", \"to\": " + port + "}}, "
                + "\"timings\": {\"healthPeriodSeconds\": 1}";
        ProcessBuilder script = new ProcessBuilder("bash", SCRIPT.toString()).redirectErrorStream(true);
        Map<String, String> env = script.environment();
        env.put("AGENT_JAR_S3_URI", "file://" + jar);
        env.put("AGENT_JAR_SHA256", sha256(jar));
        env.put("API_ENDPOINT", apiEndpoint() + "/"); // as the stack output ApiUrl ends
        env.put("PUSH_ENDPOINT", LOCAL.profile().edge().pushEndpoint().toString());
        env.put("ARCHIVE_BUCKET", "");
        env.put("GAME_SERVER_GROUP_NAME", GROUP);
        env.put("GAME_SERVER_CONFIG", gameServer);
        env.put("GAMEFLEET_ROOT", root.toString());
        env.put("IMDS_ENDPOINT", LOCAL.profile().edge().metadataEndpoint(instance).toString());
        // Here nothing routes to EC2's metadata; the rule itself is tried below, in a namespace of its own.
        env.put("METADATA_FIREWALL", "off");
        env.put("AGENT_USER", System.getProperty("user.name"));
        env.put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The instance profile's keys, as the SDK's default chain finds them on EC2: from the metadata, which here
        // is the simulated instance's (and nothing else of this machine's, neither its ~/.aws nor its environment).
        instanceProfileOnly(env);
        env.put("AWS_EC2_METADATA_SERVICE_ENDPOINT", LOCAL.profile().edge().metadataEndpoint(instance).toString());
        install = script.start();
        assertThat(install.waitFor(60, TimeUnit.SECONDS)).as("the script ends once the agent is started").isTrue();
        installOutput = new String(install.getInputStream().readAllBytes());
        assertThat(install.exitValue()).as(installOutput).isZero();
    }

    @AfterAll
    static void stopTheLoopAndItsProcesses() throws IOException {
        loop().ifPresent(ProcessHandle::destroyForcibly);
        // The agent and its game servers (an adopted one is no longer the agent's child): their command
        // lines name this class's folder.
        ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(root.toString()))
                .forEach(ProcessHandle::destroyForcibly);
    }

    @Test
    @Order(1)
    void itWritesTheInstancesConfigurationFromItsMetadataAndTheInputs() throws IOException {
        JsonNode config = GamefleetClient.JSON.readTree(root.resolve("etc/gamefleet/agent.json").toFile());
        assertThat(config.path("instanceId").asText()).isEqualTo(instance);
        assertThat(config.path("region").asText()).as("from the zone, which is all the local metadata has")
                .isEqualTo(LocalAccount.REGION);
        assertThat(config.path("gameServerGroupName").asText()).isEqualTo(GROUP);
        assertThat(config.path("apiEndpoint").asText()).as("without ApiUrl's trailing /").isEqualTo(apiEndpoint());
        assertThat(config.path("pushEndpoint").asText()).isEqualTo(LOCAL.profile().edge().pushEndpoint().toString());
        assertThat(config.path("workDirectory").asText()).isEqualTo(root.resolve("var/lib/gamefleet-agent").toString());
        assertThat(config.has("archiveBucket")).as("no bucket: the logs stay on the instance").isFalse();
        assertThat(config.path("command").asText()).isEqualTo("python3");
        assertThat(root.resolve("opt/gamefleet/gamefleet-agent.jar")).isRegularFile();
        assertThat(installOutput).contains("started the agent under a restart loop");
    }

    @Test
    @Order(2)
    void theAgentItStartsRegistersAndReportsHealthOverItsPushConnection() {
        String id = await("a server registered on " + instance, () -> registered().orElse(null)).path("GameServerId").asText();
        // A report over the channel writes the item only when a lease starts or nears its end (HealthReports),
        // so the lease, not LastHealthCheckTime, shows that reports arrive.
        GameServer leased = await("a health lease from the agent's push connection", () -> leased(id, null));
        assertThat(leased.pushConnectionId()).as("the connection the instance's principal opened")
                .isEqualTo(instancePushConnection());
    }

    @Test
    @Order(3)
    void aKilledAgentIsStartedAgainByTheLoopAndAdoptsItsMatch() throws IOException {
        String id = await("a server registered", () -> registered().orElse(null)).path("GameServerId").asText();
        String killedConnection = await("a health lease", () -> leased(id, null)).pushConnectionId();
        ProcessHandle agent = agentJvm().orElseThrow();
        agent.destroyForcibly();
        ProcessHandle again = await("a new agent JVM", () -> agentJvm().filter(p -> p.pid() != agent.pid()).orElse(null));
        assertThat(Files.readString(root.resolve("var/log/gamefleet-agent.log"))).contains("exited 137; restarting in 1 s");
        await("health reported for the same server over the new agent's connection", () -> leased(id, killedConnection));
        assertThat(again.isAlive()).isTrue();
    }

    @Test
    @Order(4)
    void theUnitItInstallsIsTheOneInTheRepository() throws Exception {
        Process unit = new ProcessBuilder("env", "-i", "PATH=" + System.getenv("PATH"), "GAMEFLEET_STEPS=unit", "bash",
                SCRIPT.toString()).start();
        String printed = new String(unit.getInputStream().readAllBytes());
        assertThat(unit.waitFor()).isZero();
        assertThat(printed).isEqualTo(Files.readString(REPOSITORY.resolve("scripts/gamefleet-agent.service")));
        if (runs("systemd-analyze", "--version")) {
            // systemd's own check of the unit: an unknown key or a bad value is a line of its output.
            Process verify = new ProcessBuilder("systemd-analyze", "verify",
                    REPOSITORY.resolve("scripts/gamefleet-agent.service").toString()).redirectErrorStream(true).start();
            assertThat(new String(verify.getInputStream().readAllBytes())).isEmpty();
            assertThat(verify.waitFor()).isZero();
        }
        assertThat(Files.readString(root.resolve("etc/systemd/system/gamefleet-agent.service")))
                .contains("ExecStart=" + Path.of(System.getProperty("java.home"), "bin", "java") + " -jar "
                        + root.resolve("opt/gamefleet/gamefleet-agent.jar"), "Restart=on-failure", "KillMode=process",
                        "ExecStartPre=+/bin/sh " + root.resolve("opt/gamefleet/metadata-firewall"), "ReadWritePaths="
                        + root.resolve("var/lib/gamefleet-agent") + " " + root.resolve("var/lib/gamefleet-servers"));
        assertThat(root.resolve("opt/gamefleet/metadata-firewall")).content().contains("METADATA_FIREWALL=off");
    }

    @Test
    @Order(5)
    void aJarOfAnotherSha256IsNeitherInstalledNorStarted(@TempDir Path other) throws Exception {
        Path jar = REPOSITORY.resolve("agent/target/gamefleet-agent.jar");
        String wrong = "0".repeat(64);
        Script install = script(other, "install", Map.of("AGENT_JAR_S3_URI", "file://" + jar, "AGENT_JAR_SHA256", wrong));
        assertThat(install.code()).as(install.output()).isEqualTo(1);
        assertThat(install.output()).contains("the agent jar copied from file://" + jar + " has SHA-256 " + sha256(jar)
                + ", not AGENT_JAR_SHA256 " + wrong + " (the stack output AgentJarSha256): it is not the stack's");
        assertThat(other.resolve("opt/gamefleet/gamefleet-agent.jar")).doesNotExist();
        assertThat(other.resolve("opt/gamefleet/gamefleet-agent.jar.tmp")).doesNotExist();
        assertThat(other.resolve("etc/systemd/system/gamefleet-agent.service")).doesNotExist();

        Script malformed = script(other, "install", Map.of("AGENT_JAR_S3_URI", "file://" + jar, "AGENT_JAR_SHA256", "abc"));
        assertThat(malformed.output()).contains("AGENT_JAR_SHA256 (abc) is not a SHA-256");
        assertThat(script(other, "install", Map.of("AGENT_JAR_S3_URI", "file://" + jar)).output())
                .contains("AGENT_JAR_SHA256 is not set");

        // An installed jar (a baked image's) that the stack's SHA-256 does not name: not started.
        Files.createDirectories(other.resolve("opt/gamefleet"));
        Files.write(other.resolve("opt/gamefleet/gamefleet-agent.jar"), new byte[] {'P', 'K'});
        Script start = script(other, "start", Map.of("AGENT_JAR_SHA256", sha256(jar), "GAMEFLEET_INIT", "loop"));
        assertThat(start.code()).as(start.output()).isEqualTo(1);
        assertThat(start.output()).contains("it is not the stack's, and is neither installed nor started");
        assertThat(other.resolve("run/gamefleet-agent.pid")).doesNotExist();
    }

    /**
     * The rule the unit runs before each start, tried in a network namespace of its own (so this
     * machine's rules are untouched), where a listener stands at EC2's metadata addresses: the game
     * servers' users (61000 and 61001, for two processes) are refused at once, another user and root
     * are not; run again, it replaces its rule rather than adding one.
     */
    @Test
    @Order(6)
    void theMetadataRuleRefusesTheGameServersUsersAndNoOneElse(@TempDir Path other) throws Exception {
        Assumptions.assumeTrue(isRoot() && runs("iptables-restore", "--version") && runs("ip6tables-restore", "--version")
                && runs("unshare", "--version") && runs("setpriv", "--version") && runs("ip", "-V"),
                "the rule is tried as root, with iptables, unshare, setpriv and ip (iproute2)");
        Files.createDirectories(other.resolve("etc/gamefleet"));
        Files.createDirectories(other.resolve("opt/gamefleet"));
        Files.copy(REPOSITORY.resolve("agent/target/gamefleet-agent.jar"), other.resolve("opt/gamefleet/gamefleet-agent.jar"));
        Files.writeString(other.resolve("etc/gamefleet/agent.json"), "{\"gameServerGroupName\": \"g\", \"command\": \"/bin/true\","
                + " \"processes\": 2, \"ports\": {\"game\": {\"from\": 7777, \"to\": 7778}}}");
        String tryIt = """
                set -e
                ip link set lo up
                ip addr add 169.254.169.254/32 dev lo
                ip -6 addr add fd00:ec2::254/128 dev lo nodad
                GAMEFLEET_STEPS='firewall firewall' GAMEFLEET_ROOT="$1" JAVA="$2" bash "$3" 2>&1
                python3 -m http.server --bind 169.254.169.254 8080 >/dev/null 2>&1 &
                four=$!
                python3 -m http.server --bind fd00:ec2::254 8080 >/dev/null 2>&1 &
                six=$!
                trap 'kill $four $six' EXIT
                for url in http://169.254.169.254:8080/ 'http://[fd00:ec2::254]:8080/'; do
                  curl -sg -o /dev/null --retry 50 --retry-connrefused --retry-delay 1 --max-time 30 "$url"
                  for user in 61000 61001 61002 0; do
                    code=0
                    setpriv --reuid $user --regid $user --clear-groups curl -sgf -o /dev/null --max-time 10 "$url" || code=$?
                    echo "$url $user curl exit $code"
                  done
                done
                iptables -S; ip6tables -S
                """;
        Process p = new ProcessBuilder("unshare", "--net", "bash", "-c", tryIt, "try", other.toString(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), SCRIPT.toString())
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as(output).isZero();
        for (String url : List.of("http://169.254.169.254:8080/", "http://[fd00:ec2::254]:8080/")) {
            // curl's 7: the connection was refused (at once, a TCP reset); 0: the answer came, a 200.
            assertThat(output).as(output).contains(url + " 61000 curl exit 7", url + " 61001 curl exit 7",
                    url + " 61002 curl exit 0", url + " 0 curl exit 0");
        }
        assertThat(output).contains("the instance metadata refuses users 61000-61001 (the game servers)");
        assertThat(output.lines().filter(l -> l.equals("-A OUTPUT -j GAMEFLEET-METADATA"))).as("one jump per family, once")
                .hasSize(2);
        assertThat(output.lines().filter(l -> l.startsWith("-A GAMEFLEET-METADATA"))).containsExactly(
                "-A GAMEFLEET-METADATA -d 169.254.169.254/32 -p tcp -m owner --uid-owner 61000-61001 -j REJECT --reject-with tcp-reset",
                "-A GAMEFLEET-METADATA -d 169.254.169.254/32 -m owner --uid-owner 61000-61001 -j REJECT --reject-with icmp-port-unreachable",
                "-A GAMEFLEET-METADATA -d fd00:ec2::254/128 -p tcp -m owner --uid-owner 61000-61001 -j REJECT --reject-with tcp-reset",
                "-A GAMEFLEET-METADATA -d fd00:ec2::254/128 -m owner --uid-owner 61000-61001 -j REJECT --reject-with icmp6-port-unreachable");
    }

    /**
     * The unit's capabilities, and no others, under NoNewPrivileges, as systemd starts the agent: its
     * user switches to a game server's user (which keeps none of them), reads and changes that user's
     * private folder, and signals that user's process.
     */
    @Test
    @Order(7)
    void theUnitsCapabilitiesLetTheAgentsUserSwitchToAGameServersUserUnderNoNewPrivileges(@TempDir Path other)
            throws Exception {
        Assumptions.assumeTrue(isRoot() && runs("setpriv", "--version"), "tried as root with setpriv");
        String unit = Files.readString(REPOSITORY.resolve("scripts/gamefleet-agent.service"));
        assertThat(unit).contains("NoNewPrivileges=yes");
        String ambient = unit.lines().filter(l -> l.startsWith("AmbientCapabilities=")).findFirst().orElseThrow();
        assertThat(unit).contains("CapabilityBoundingSet=" + ambient.substring(ambient.indexOf('=') + 1));
        String caps = Arrays.stream(ambient.substring(ambient.indexOf('=') + 1).split(" "))
                .map(c -> "+" + c.substring("CAP_".length()).toLowerCase(java.util.Locale.ROOT)).collect(Collectors.joining(","));
        Path theirs = Files.createDirectories(other.resolve("theirs"));
        Files.writeString(theirs.resolve("log.txt"), "their log\n");
        new ProcessBuilder("chown", "-R", "61000:61000", theirs.toString()).start().waitFor();
        new ProcessBuilder("chmod", "0700", theirs.toString()).start().waitFor();
        String asAgent = """
                setpriv --reuid 61000 --regid 61000 --clear-groups --inh-caps=-all sh -c 'id -u; grep CapEff /proc/self/status'
                cat "$1/log.txt"
                chown 4321 "$1/log.txt" && echo chowned
                setpriv --reuid 61001 --regid 61001 --clear-groups sleep 30 &
                sleep_pid=$!
                kill "$sleep_pid" && echo signalled
                grep NoNewPrivs /proc/self/status
                """;
        Process p = new ProcessBuilder("setpriv", "--reuid", "4321", "--regid", "4321", "--clear-groups",
                "--inh-caps=" + caps, "--ambient-caps=" + caps, "--bounding-set=-all," + caps, "--no-new-privs",
                "sh", "-c", asAgent, "agent", theirs.toString()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        p.waitFor();
        assertThat(output.lines()).as(output).contains("61000", "CapEff:\t0000000000000000", "their log", "chowned",
                "signalled", "NoNewPrivs:\t1");
    }

    private record Script(int code, String output) {}

    /** The user data's {@code steps} in {@code root}, with the inputs every step needs and {@code more}. */
    private static Script script(Path root, String steps, Map<String, String> more) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", SCRIPT.toString()).redirectErrorStream(true);
        Map<String, String> env = builder.environment();
        env.put("GAMEFLEET_STEPS", steps);
        env.put("GAMEFLEET_ROOT", root.toString());
        env.put("AGENT_USER", System.getProperty("user.name"));
        env.put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        env.put("METADATA_FIREWALL", "off");
        env.putAll(more);
        Process p = builder.start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Script(p.exitValue(), output);
    }

    /** No credentials of this machine's (environment, ~/.aws) and the metadata not disabled: the chain reaches the metadata. */
    private static void instanceProfileOnly(Map<String, String> env) {
        env.keySet().removeIf(k -> k.startsWith("AWS_"));
        env.put("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials");
        env.put("AWS_CONFIG_FILE", "/nonexistent/config");
    }

    private static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static String apiEndpoint() {
        String endpoint = LOCAL.profile().endpoint().toString();
        return endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
    }

    /** Server {@code id} if it holds a live health lease from a connection other than {@code not}. */
    private static GameServer leased(String id, String not) {
        GameServer s = LOCAL.profile().services().gameServers().describe(GROUP, id, Caller.UNBOUND);
        Instant lease = s.healthLeaseExpiresAt();
        boolean live = lease != null && lease.isAfter(Instant.now()) && s.pushConnectionId() != null;
        return live && !s.pushConnectionId().equals(not) ? s : null;
    }

    private static String instancePushConnection() {
        return LOCAL.profile().services().groups().describeInstances(GROUP, Optional.of(List.of(instance)), 10,
                Optional.empty()).items().get(0).pushConnectionId();
    }

    private Optional<JsonNode> registered() {
        for (JsonNode s : admin.listServers(GROUP, "").ok().body().path("GameServers")) {
            if (s.path("InstanceId").asText().equals(instance)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    private static Optional<ProcessHandle> loop() throws IOException {
        Path pid = root.resolve("run/gamefleet-agent.pid");
        return Files.exists(pid) ? ProcessHandle.of(Long.parseLong(Files.readString(pid).trim())) : Optional.empty();
    }

    /** The loop's java child: the agent. */
    private static Optional<ProcessHandle> agentJvm() {
        try {
            return loop().flatMap(l -> l.children().filter(p -> p.info().command().orElse("").endsWith("java")).findFirst());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static boolean runs(String... command) {
        try {
            return new ProcessBuilder(command).redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private static <T> T await(String what, Supplier<T> found) {
        return GamefleetClient.await(what, PATIENCE, found);
    }
}
