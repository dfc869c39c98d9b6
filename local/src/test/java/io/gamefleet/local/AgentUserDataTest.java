package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GameServer;
import io.gamefleet.local.edge.Principal;
import io.gamefleet.local.edge.Principals;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
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
 * region and instance id from the instance's IMDSv2 ({@code /_local/imds/<instanceId>/}), the jar
 * copied from a path in place of S3, {@code agent.json} written, and, with no systemd here, the agent
 * started under the script's restart loop: it registers the scripted GSDK server and reports its
 * health over its push connection, opened with the instance's own principal; SIGKILLed, it is
 * started again and adopts the match.
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
        LOCAL.admin().createActive(GamefleetClient.groupBody(GROUP, 1, 1));
        instance = LOCAL.profile().fleet().instancesOf(GROUP).get(0).instanceId();
        Principal principal = Principals.instance(instance);
        LOCAL.profile().edge().principals().add(principal);

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
        env.put("API_ENDPOINT", apiEndpoint() + "/"); // as the stack output ApiUrl ends
        env.put("PUSH_ENDPOINT", LOCAL.profile().edge().pushEndpoint().toString());
        env.put("ARCHIVE_BUCKET", "");
        env.put("GAME_SERVER_GROUP_NAME", GROUP);
        env.put("GAME_SERVER_CONFIG", gameServer);
        env.put("GAMEFLEET_ROOT", root.toString());
        env.put("IMDS_ENDPOINT", LOCAL.profile().edge().metadataEndpoint(instance).toString());
        env.put("AGENT_USER", System.getProperty("user.name"));
        env.put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The instance profile's credentials, as the default chain finds them on the instance.
        env.put("AWS_ACCESS_KEY_ID", principal.accessKeyId());
        env.put("AWS_SECRET_ACCESS_KEY", principal.secretAccessKey());
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
                        + root.resolve("opt/gamefleet/gamefleet-agent.jar"), "Restart=on-failure", "KillMode=process");
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
