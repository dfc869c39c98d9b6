package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per server, a GSDK call for a session is taken only from a socket of the session's uid: the
 * endpoint over HTTP on Jetty, the socket owners a table the test fills by client port (the kernel's
 * own table, with real sockets of other uids, is {@link IsolationTest}'s).
 */
class NotYourSessionTest {
    /** The session's uid: this JVM's own where it is not root (the fixture may then give it its folders), else 61000. */
    private static final int UID = Privileges.ofThisProcess().uid() == 0 ? 61000 : (int) Privileges.ofThisProcess().uid();
    private static final int OTHER_UID = UID + 7;

    @TempDir Path work;
    private final Map<Integer, Integer> ownerByClientPort = new ConcurrentHashMap<>();
    private final AtomicInteger lookups = new AtomicInteger();
    private AgentFixture agent;
    private GsdkEndpoint endpoint;
    private int port;

    private void start(String runAs) throws Exception {
        agent = new AgentFixture(work, "{\"processes\": 1, \"runAs\": \"" + runAs + "\", \"runAsUidBase\": " + UID + "}");
        agent.tick();
        endpoint = new GsdkEndpoint(agent.supervisor.sessions(), 0, (client, server) -> {
            lookups.incrementAndGet();
            Integer uid = ownerByClientPort.get(client.getPort());
            return uid == null ? OptionalInt.empty() : OptionalInt.of(uid);
        });
        port = endpoint.start();
    }

    @AfterEach
    void stop() throws Exception {
        if (endpoint != null) {
            endpoint.stop();
        }
    }

    /** A keep-alive HTTP/1.1 connection whose client socket the table says {@code uid} owns (none for null). */
    private Connection connectionOf(Integer uid) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(5000);
        if (uid != null) {
            ownerByClientPort.put(socket.getLocalPort(), uid);
        }
        return new Connection(socket);
    }

    private record Answer(int status, JsonNode body) {}

    private record Connection(Socket socket) implements AutoCloseable {
        Answer call(String method, String path, String body) throws IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            socket.getOutputStream().write((method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            String head = readHead(in);
            int length = Integer.parseInt(head.lines().filter(l -> l.toLowerCase().startsWith("content-length:"))
                    .findFirst().orElseThrow().substring(15).trim());
            return new Answer(Integer.parseInt(head.substring(9, 12)), AgentFixture.JSON.readTree(in.readNBytes(length)));
        }

        private static String readHead(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("the connection closed");
                }
                head.write(b);
            }
            return head.toString(StandardCharsets.US_ASCII);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void aCallForASessionFromAnotherUidIs403NotYourSessionOnEveryPathAndChangesNothing() throws Exception {
        start("per-server");
        ServerRecord s = agent.server(0);
        String id = s.sessionHostId;
        try (Connection own = connectionOf(UID)) {
            assertThat(own.call("PATCH", "/v1/sessionHosts/" + id, "{\"CurrentGameState\":\"Initializing\"}").status()).isEqualTo(200);
            Instant beatAt = s.lastHeartbeat;
            agent.clock.advanceSeconds(1);

            for (String[] call : new String[][] {
                    {"PATCH", "/v1/sessionHosts/" + id, "{\"CurrentGameState\":\"Terminated\"}"},
                    {"POST", "/v1/sessionHosts/" + id + "/heartbeats", "{\"CurrentGameState\":\"StandingBy\"}"},
                    {"POST", "/v1/titles/t/clusters/c/instances/" + id + "/heartbeat", "{\"CurrentGameState\":\"StandingBy\"}"},
                    {"POST", "/v1/metrics/" + id + "/gsdkinfo", "{\"Flavor\":\"Evil\",\"Version\":\"1\"}"},
                    {"PATCH", "/v1/sessionHosts/" + id, "not even JSON"}}) {
                try (Connection other = connectionOf(OTHER_UID)) { // refused unread: Jetty may close the connection
                    Answer a = other.call(call[0], call[1], call[2]);
                    assertThat(a.status()).as(call[0] + " " + call[1]).isEqualTo(403);
                    assertThat(a.body().path("error").asText()).isEqualTo("NotYourSession");
                    assertThat(a.body().path("code").asInt()).isEqualTo(403);
                }
            }
            assertThat(s.state).isEqualTo(GameState.Initializing);
            assertThat(s.lastHeartbeat).isEqualTo(beatAt);
            assertThat(s.gsdkFlavor).isNull();
            assertThat(s.stopping()).isFalse();

            // The session's own process is served as before.
            Answer a = own.call("PATCH", "/v1/sessionHosts/" + id, "{\"CurrentGameState\":\"StandingBy\"}");
            assertThat(a.status()).isEqualTo(200);
            assertThat(a.body().path("operation").asText()).isEqualTo("Continue");
            assertThat(s.state).isEqualTo(GameState.StandingBy);
        }
    }

    @Test
    void aSocketNoOneOwnsIsRefusedAndAnUnknownSessionIsStillNotFound() throws Exception {
        start("per-server");
        try (Connection unknown = connectionOf(null)) {
            Answer a = unknown.call("PATCH", "/v1/sessionHosts/" + agent.server(0).sessionHostId, "{\"CurrentGameState\":\"Initializing\"}");
            assertThat(a.status()).isEqualTo(403);
            assertThat(agent.server(0).state).isNull();
            assertThat(unknown.call("PATCH", "/v1/sessionHosts/nobody", "{\"CurrentGameState\":\"Initializing\"}").status()).isEqualTo(404);
        }
    }

    @Test
    void theCallersUidIsAskedOncePerConnection() throws Exception {
        start("per-server");
        String path = "/v1/sessionHosts/" + agent.server(0).sessionHostId;
        try (Connection own = connectionOf(UID)) {
            for (int i = 0; i < 5; i++) {
                assertThat(own.call("PATCH", path, "{\"CurrentGameState\":\"Initializing\"}").status()).isEqualTo(200);
            }
        }
        assertThat(lookups).hasValue(1);
        try (Connection again = connectionOf(UID)) {
            again.call("PATCH", path, "{\"CurrentGameState\":\"Initializing\"}");
        }
        assertThat(lookups).hasValue(2);
    }

    @Test
    void asTheAgentsUserNoCallerIsChecked() throws Exception {
        start("agent");
        try (Connection anyone = connectionOf(OTHER_UID)) {
            assertThat(anyone.call("PATCH", "/v1/sessionHosts/" + agent.server(0).sessionHostId,
                    "{\"CurrentGameState\":\"Initializing\"}").status()).isEqualTo(200);
        }
        assertThat(lookups).hasValue(0);
    }
}
