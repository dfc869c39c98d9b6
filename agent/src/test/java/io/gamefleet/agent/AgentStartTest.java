package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.PushChannel;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The agent's start: what may pass (the metadata unreadable, the GSDK port busy) is tried again with
 * backoff, never the exit code 2 that systemd does not restart; what cannot work is refused at once.
 * The waits are the test's: its sleeper fixes the fault instead of waiting.
 */
class AgentStartTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final StaticCredentialsProvider CREDENTIALS = StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));

    @TempDir Path work;
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final List<Duration> waited = new ArrayList<>();

    private AgentConfig config(String overrides) throws Exception {
        ObjectNode c = (ObjectNode) JSON.readTree("""
                {"gameServerGroupName": "g", "region": "us-east-1", "connectionAddress": "127.0.0.1",
                 "apiEndpoint": "http://127.0.0.1:9", "command": "sleep", "args": ["600"], "runAs": "agent",
                 "ports": {"game": {"from": 7000, "to": 7000}}, "gsdkPort": 0, "qosPort": 0}
                """);
        c.put("workDirectory", work.resolve("agent").toString()).put("serversDirectory", work.resolve("servers").toString());
        c.setAll((ObjectNode) JSON.readTree(overrides));
        return AgentConfigReader.parse("test", c.toString());
    }

    private Agent.Context context(Runnable onWait) {
        return new Agent.Context(new AgentLog(java.time.Clock.systemUTC(), log::add), Privileges.ofThisProcess(), System.getenv(), delay -> {
            waited.add(delay);
            onWait.run();
        }, Backoff.NO_JITTER);
    }

    @Test
    void aBusyGsdkPortIsTriedAgainWithBackoffUntilItIsFree() throws Exception {
        ServerSocket busy = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
        int port = busy.getLocalPort();
        Agent agent = Agent.start(config("{\"instanceId\": \"i-1\", \"gsdkPort\": " + port + "}"), CREDENTIALS, context(() -> {
            if (waited.size() == 2) {
                try {
                    busy.close(); // freed while the agent waits its second delay
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        }));
        try {
            assertThat(agent.gsdkPort()).isEqualTo(port);
            assertThat(waited).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
            assertThat(log).anyMatch(l -> l.contains("WARN cannot listen on 127.0.0.1:" + port + " for the GSDK (")
                    && l.endsWith("free that port or set gsdkPort); trying again in 1000 ms"));
        } finally {
            agent.shutdown();
        }
    }

    @Test
    void aBusyQosPortIsSaidOnceAndTheAgentStartsWithoutItsBeacon() throws Exception {
        try (java.net.DatagramSocket busy = new java.net.DatagramSocket(0, InetAddress.getByName("127.0.0.1"))) {
            int port = busy.getLocalPort();
            Agent agent = Agent.start(config("{\"instanceId\": \"i-1\", \"qosPort\": " + port + "}"), CREDENTIALS, context(() -> { }));
            try {
                assertThat(agent.qosPort()).isEmpty();
                assertThat(waited).as("not tried again").isEmpty();
                assertThat(log).filteredOn(l -> l.contains("QoS beacon")).singleElement().satisfies(l -> assertThat(l)
                        .contains("WARN no QoS beacon: cannot listen on UDP 127.0.0.1:" + port));
                assertThat(log).anyMatch(l -> l.contains("INFO agent of i-1 in g"));
            } finally {
                agent.shutdown();
            }
        }
    }

    /** It answers on its port, which the push channel's connect reports (so that Gamefleet lists it). */
    @Test
    void theAgentsQosBeaconAnswersOnItsLoopbackPortAndClosesWithIt() throws Exception {
        int port;
        try (java.net.DatagramSocket free = new java.net.DatagramSocket(0, InetAddress.getByName("127.0.0.1"))) {
            port = free.getLocalPort();
        }
        FakeGamefleet gamefleet = new FakeGamefleet().start();
        Agent agent = Agent.start(config("{\"instanceId\": \"i-1\", \"qosPort\": " + port + ", \"pushEndpoint\": \"ws://127.0.0.1:"
                + gamefleet.port() + "/push\"}"), CREDENTIALS, context(() -> { }));
        try (gamefleet; java.net.DatagramSocket client = new java.net.DatagramSocket(0, InetAddress.getByName("127.0.0.1"))) {
            assertThat(agent.qosPort()).hasValue(port);
            ChildJvm.await("the push channel's connect", () -> !gamefleet.pushConnects.isEmpty());
            assertThat(gamefleet.pushConnects.get(0).get("query"))
                    .isEqualTo("instanceId=i-1&gameServerGroupName=g&" + PushChannel.QOS_PORT_PARAMETER + "=" + port);
            client.setSoTimeout(30_000); // a missing reply fails the test instead of hanging it
            client.send(new java.net.DatagramPacket(new byte[] {(byte) 0xFF, (byte) 0xFF, 42}, 3, InetAddress.getByName("127.0.0.1"), port));
            java.net.DatagramPacket reply = new java.net.DatagramPacket(new byte[16], 16);
            client.receive(reply);
            assertThat(java.util.Arrays.copyOf(reply.getData(), reply.getLength())).containsExactly(0, 0, 42);
        } finally {
            agent.shutdown();
        }
        try (java.net.DatagramSocket again = new java.net.DatagramSocket(port, InetAddress.getByName("127.0.0.1"))) {
            assertThat(again.getLocalPort()).as("the port freed by the agent's stop").isEqualTo(port);
        }
    }

    @Test
    void unreadableInstanceMetadataIsTriedAgainWithBackoffUntilItAnswers() throws Exception {
        try (FakeGamefleet metadata = new FakeGamefleet().start()) {
            metadata.metadataDown = true;
            Agent agent = Agent.start(config("{\"metadataEndpoint\": \"http://127.0.0.1:" + metadata.port() + "\"}"), CREDENTIALS,
                    context(() -> {
                        // First down, then up without the instance id, then with it.
                        if (waited.size() == 1) {
                            metadata.metadataDown = false;
                        } else {
                            metadata.metadata.put(InstanceMetadata.INSTANCE_ID, "i-0abc");
                        }
                    }));
            try {
                assertThat(waited).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
                assertThat(log).anyMatch(l -> l.contains("WARN cannot read the instance metadata (") && l.endsWith("trying again in 1000 ms"));
                assertThat(log).anyMatch(l -> l.contains("WARN cannot read the instance metadata (no instance-id"));
                assertThat(log).anyMatch(l -> l.contains("INFO agent of i-0abc in g"));
            } finally {
                agent.shutdown();
            }
        }
    }

    @Test
    void aStartStillTryingAgainEndsWhenItsThreadIsInterrupted() throws Exception {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            AgentConfig config = config("{\"instanceId\": \"i-1\", \"gsdkPort\": " + busy.getLocalPort() + "}");
            Agent.Context interrupted = new Agent.Context(new AgentLog(java.time.Clock.systemUTC(), log::add),
                    Privileges.ofThisProcess(), System.getenv(), delay -> {
                        throw new InterruptedException("stopped");
                    }, Backoff.NO_JITTER);
            assertThatThrownBy(() -> Agent.start(config, CREDENTIALS, interrupted)).isInstanceOf(InterruptedException.class);
            // Its lock is let go: another start on the same work directory goes through.
            busy.close();
            Agent.start(config, CREDENTIALS, context(() -> { })).shutdown();
        }
    }

    @Test
    void aCommandTheProcessesUidsCannotExecuteIsSaidOnceAtStart() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(ChildJvm.canSwitchUsers(), "runs per server: needs root (or CAP_SETUID and CAP_SETGID)");
        ChildJvm.traversable(work);
        Path home = java.nio.file.Files.createDirectories(work.resolve("home"));
        java.nio.file.Files.setPosixFilePermissions(home, ServerFolders.AGENT_ONLY); // as /root is
        Path game = java.nio.file.Files.writeString(home.resolve("game.sh"), "#!/bin/sh\nexec sleep 600\n");
        java.nio.file.Files.setPosixFilePermissions(game, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        for (String command : List.of(game.toString(), "sleep")) {
            log.clear();
            Agent agent = Agent.start(config("{\"instanceId\": \"i-1\", \"runAs\": \"per-server\", \"command\": \"" + command + "\"}"),
                    CREDENTIALS, context(() -> { }));
            agent.shutdown();
            List<String> said = log.stream().filter(l -> l.contains("is not executable by the game servers' uids 61000-61000")).toList();
            assertThat(said).as(command).hasSize(command.equals("sleep") ? 0 : 1);
        }
    }

    @Test
    void aConfigurationThatCannotWorkIsRefusedAtOnce() throws Exception {
        Privileges none = new Privileges(1000, 0);
        Agent.Context unprivileged = new Agent.Context(new AgentLog(java.time.Clock.systemUTC(), log::add), none, System.getenv(),
                delay -> waited.add(delay), Backoff.NO_JITTER);
        assertThatThrownBy(() -> Agent.start(config("{\"instanceId\": \"i-1\", \"runAs\": \"per-server\"}"), CREDENTIALS, unprivileged))
                .isInstanceOf(Agent.StartFailure.class).hasMessageContaining("runAs \"per-server\" needs an agent that may switch users");
        assertThat(waited).isEmpty();
    }
}
