package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PlayFab's GSDK endpoints over HTTP, on Jetty, as the GSDKs call them. */
class GsdkEndpointTest {
    @TempDir Path work;
    private AgentFixture agent;
    private GsdkEndpoint endpoint;
    private int port;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws Exception {
        agent = new AgentFixture(work);
        agent.tick();
        endpoint = new GsdkEndpoint(agent.supervisor.sessions(), 0, SocketOwners.PROC_NET);
        port = endpoint.start();
    }

    @AfterEach
    void stop() throws Exception {
        endpoint.stop();
    }

    private HttpResponse<String> call(String method, String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return AgentFixture.JSON.readTree(r.body());
    }

    @Test
    void patchAndPostHeartbeatsAreAnsweredWithTheOperation() throws Exception {
        ServerRecord s = agent.server(0);
        HttpResponse<String> r = call("PATCH", "/v1/sessionHosts/" + s.sessionHostId, "{\"currentGameState\":\"Initializing\"}");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(json(r).path("operation").asText()).isEqualTo("Continue");
        assertThat(json(r).path("nextHeartbeatIntervalMs").asInt()).isEqualTo(1000);
        r = call("POST", "/v1/sessionHosts/" + s.sessionHostId + "/heartbeats", "{\"CurrentGameState\":\"StandingBy\"}");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(s.state).isEqualTo(GameState.StandingBy);
        assertThat(call("POST", "/v1/metrics/" + s.sessionHostId + "/gsdkinfo", "{\"Flavor\":\"Java\",\"Version\":\"2.0.0\"}")
                .statusCode()).isEqualTo(200);
        assertThat(s.gsdkFlavor).isEqualTo("Java 2.0.0");
    }

    @Test
    void refusalsAreJsonErrorsAndChangeNothing() throws Exception {
        ServerRecord s = agent.server(0);
        call("PATCH", "/v1/sessionHosts/" + s.sessionHostId, "{\"CurrentGameState\":\"StandingBy\"}");
        HttpResponse<String> r = call("PATCH", "/v1/sessionHosts/" + s.sessionHostId, "{\"CurrentGameState\":\"Initializing\"}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(json(r).path("error").asText()).isEqualTo("InvalidTransition");
        assertThat(s.state).isEqualTo(GameState.StandingBy);
        r = call("PATCH", "/v1/sessionHosts/" + s.sessionHostId, "{\"CurrentGameState\":");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(json(r).path("error").asText()).isEqualTo("MalformedRequest");
        r = call("PATCH", "/v1/sessionHosts/nobody", "{\"CurrentGameState\":\"StandingBy\"}");
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(json(r).path("error").asText()).isEqualTo("SessionHostNotFound");
        assertThat(call("GET", "/v1/sessionHosts/" + s.sessionHostId, "").statusCode()).isEqualTo(404);
        assertThat(call("POST", "/v1/metrics/" + s.sessionHostId + "/gsdkinfo", "{}").statusCode()).isEqualTo(400);
        assertThat(call("PATCH", "/v1/sessionHosts/" + agent.server(1).sessionHostId, "{\"CurrentGameState\":\"Initializing\"}")
                .statusCode()).isEqualTo(200);
    }

    @Test
    void aBodyOver64KiBIsRefusedWith413AndChangesNothingWithOrWithoutAContentLength() throws Exception {
        ServerRecord s = agent.server(0);
        String heartbeat = "{\"CurrentGameState\":\"StandingBy\",\"padding\":\"" + "x".repeat(GsdkEndpoint.MAX_BODY) + "\"}";
        HttpResponse<String> r = call("PATCH", "/v1/sessionHosts/" + s.sessionHostId, heartbeat);
        assertThat(r.statusCode()).isEqualTo(413);
        assertThat(json(r).path("error").asText()).isEqualTo("TooLarge");

        // Chunked: no length to check beforehand, so the limit holds while the body is read.
        byte[] body = heartbeat.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5000);
            var out = socket.getOutputStream();
            out.write(("PATCH /v1/sessionHosts/" + s.sessionHostId + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            for (int from = 0; from < body.length; from += 8192) {
                int n = Math.min(8192, body.length - from);
                out.write((Integer.toHexString(n) + "\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                out.write(body, from, n);
                out.write("\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            }
            out.write("0\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            out.flush();
            String answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(answer).startsWith("HTTP/1.1 413 ").contains("application/json");
            assertThat(AgentFixture.JSON.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4)).path("error").asText())
                    .isEqualTo("TooLarge");
        }
        assertThat(s.state).isNull();
        assertThat(s.lastHeartbeat).isNull();
        assertThat(call("PATCH", "/v1/sessionHosts/" + s.sessionHostId, "{\"CurrentGameState\":\"Initializing\"}")
                .statusCode()).isEqualTo(200);
    }

    @Test
    void listensOnTheLoopbackAddressOnly() throws Exception {
        java.net.InetAddress other = java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces()).stream()
                .flatMap(i -> java.util.Collections.list(i.getInetAddresses()).stream())
                .filter(a -> !a.isLoopbackAddress() && a instanceof java.net.Inet4Address).findFirst().orElse(null);
        org.junit.jupiter.api.Assumptions.assumeTrue(other != null, "no address but the loopback one");
        try (java.net.Socket socket = new java.net.Socket()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> socket.connect(new java.net.InetSocketAddress(other, port), 500))
                    .isInstanceOf(java.io.IOException.class);
        }
    }

    @Test
    void aBodyOfExactly64KiBIsRead() throws Exception {
        ServerRecord s = agent.server(0);
        String head = "{\"CurrentGameState\":\"Initializing\",\"padding\":\"";
        String heartbeat = head + "x".repeat(GsdkEndpoint.MAX_BODY - head.length() - 2) + "\"}";
        assertThat(heartbeat).hasSize(GsdkEndpoint.MAX_BODY);
        assertThat(call("PATCH", "/v1/sessionHosts/" + s.sessionHostId, heartbeat).statusCode()).isEqualTo(200);
        assertThat(s.state).isEqualTo(GameState.Initializing);
    }

    @Test
    void aStoppedEndpointNoLongerListens() throws Exception {
        endpoint.stop();
        try (java.net.Socket socket = new java.net.Socket()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> socket.connect(new java.net.InetSocketAddress(GsdkEndpoint.LOOPBACK,
                    port), 2000)).isInstanceOf(java.net.ConnectException.class);
        }
    }
}
