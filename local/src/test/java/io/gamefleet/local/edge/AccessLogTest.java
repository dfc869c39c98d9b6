package io.gamefleet.local.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Which requests have an access log line at each {@link LogLevel}: by default not the agents'
 * background ones (instance metadata reads, heartbeats), whatever else they are.
 */
class AccessLogTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2100-01-01T10:20:30.456Z"), ZoneOffset.UTC);
    private static final String METADATA = "/_local/imds/i-0123456789abcdef0/secret/latest/meta-data/instance-id";
    private static final String NOTICE = "/_local/imds/i-0123456789abcdef0/secret/latest/meta-data/spot/instance-action";
    private static final String HEARTBEAT = "{\"HealthCheck\":\"HEALTHY\"}";
    private static final String UTILIZED = "{\"HealthCheck\":\"HEALTHY\",\"UtilizationStatus\":\"UTILIZED\"}";

    /** The lines of the requests the client sent, each answered with the status its X-Status header asks. */
    private static List<String> logged(LogLevel level, int expected) throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        HttpEdge.Limits limits = HttpEdge.Limits.defaults();
        // Notes what EdgeServer and the API note (a heartbeat, the operation), then answers.
        WholeRequests handler = new WholeRequests(limits, exchange -> {
            AccessLog.noteHeartbeat(exchange);
            if (exchange.method().equals("PATCH")) {
                exchange.note(AccessLog.OPERATION, "UpdateGameServer");
            }
            try {
                exchange.respond(Integer.parseInt(exchange.headers().getFirst("X-Status")), "{}");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        HttpEdge edge = new HttpEdge(0, limits, new AccessLog(CLOCK, lines::add, level), handler);
        try {
            HttpClient client = HttpClient.newHttpClient();
            send(client, edge, "GET", METADATA, "", 200);
            send(client, edge, "PUT", "/_local/imds/i-0123456789abcdef0/secret/latest/api/token", "", 200);
            send(client, edge, "GET", METADATA, "", 401);
            send(client, edge, "GET", NOTICE, "", 404); // no interruption notice: EC2's 404, no error
            send(client, edge, "PATCH", "/game-server-groups/arena/game-servers/gs-1", HEARTBEAT, 200);
            send(client, edge, "PATCH", "/game-server-groups/arena/game-servers/gs-2", UTILIZED, 200);
            send(client, edge, "PATCH", "/game-server-groups/arena/game-servers/gs-3", HEARTBEAT, 404);
            send(client, edge, "GET", "/game-server-groups", "", 200);
            send(client, edge, "POST", "/game-server-groups/arena/claim", "", 500);
            // Each line is written once its answer is sent: await them all (the claim's is the last), within a bound.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while ((lines.size() < expected || lines.stream().noneMatch(l -> l.contains("/claim")))
                    && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
        } finally {
            edge.close();
        }
        // Without the time, the milliseconds and the (unsigned) caller.
        return lines.stream().map(l -> {
            List<String> words = List.of(l.split(" "));
            return String.join(" ", words.subList(1, words.size() - 3));
        }).toList();
    }

    private static void send(HttpClient client, HttpEdge edge, String method, String path, String body, int status)
            throws Exception {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + edge.port()
                + path)).method(method, HttpRequest.BodyPublishers.ofString(body)).header("X-Status", "" + status)
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(status);
    }

    @Test
    void byDefaultTheAgentsMetadataReadsAndHeartbeatsHaveNoLineUnlessRefused() throws Exception {
        assertThat(logged(LogLevel.REQUESTS, 5)).containsExactlyInAnyOrder(
                "GET /_local/imds/i-0123456789abcdef0/*/latest/meta-data/instance-id - 401",
                "PATCH /game-server-groups/arena/game-servers/gs-2 UpdateGameServer 200",
                "PATCH /game-server-groups/arena/game-servers/gs-3 UpdateGameServer 404",
                "GET /game-server-groups - 200",
                "POST /game-server-groups/arena/claim - 500");
    }

    @Test
    void allHasEveryRequestAndErrorsOnlyTheRefusedAndFailed() throws Exception {
        assertThat(logged(LogLevel.ALL, 9)).hasSize(9).filteredOn(l -> l.contains("/_local/imds/")).hasSize(4);
        assertThat(logged(LogLevel.ERRORS, 3)).containsExactlyInAnyOrder(
                "GET /_local/imds/i-0123456789abcdef0/*/latest/meta-data/instance-id - 401",
                "PATCH /game-server-groups/arena/game-servers/gs-3 UpdateGameServer 404",
                "POST /game-server-groups/arena/claim - 500");
    }

    @Test
    void theLevelsAreTheFlagsWords() {
        assertThat(LogLevel.choices()).isEqualTo("all|requests|quiet|errors");
        assertThat(LogLevel.of("--log", "errors")).isEqualTo(LogLevel.ERRORS);
        assertThatThrownBy(() -> LogLevel.of("--log", "loud"))
                .hasMessage("--log takes one of all, requests, quiet, errors, not loud");
        assertThat(LogLevel.ERRORS.logs("INFO")).isFalse();
        assertThat(LogLevel.ERRORS.logs("WARN")).isTrue();
        assertThat(LogLevel.QUIET.logs("INFO")).isTrue();
    }
}
