package io.gamefleet.adapters.peers;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.PeerRegions.Answer;
import io.gamefleet.domain.QosServers.QosServer;
import io.gamefleet.domain.Session;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * A peer over a socket (the JDK's HTTP server stands in for its API): what is sent, signed for the
 * peer's region, and each kind of answer, including none within the budget.
 */
class HttpPeerRegionsTest {
    private static final String ID = "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b";
    private static final Duration BUDGET = Duration.ofMillis(300);
    private static final Session.Request REQUEST = new Session.Request(ID, "arena", "map=dust", List.of("p1"),
            EnumSet.of(InstanceStatus.ACTIVE, InstanceStatus.DRAINING));

    private HttpServer peer;
    private final Map<String, String> seen = new ConcurrentHashMap<>();
    private volatile int status = 200;
    private volatile String answer = "";
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile boolean stall;
    private HttpPeerRegions regions;

    @BeforeEach
    void aPeer() throws IOException {
        peer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        peer.setExecutor(Executors.newCachedThreadPool());
        peer.createContext("/", this::serve);
        peer.start();
        regions = regionsAt(URI.create("http://127.0.0.1:" + peer.getAddress().getPort()));
    }

    private static HttpPeerRegions regionsAt(URI api) {
        return new HttpPeerRegions(List.of(new HttpPeerRegions.Endpoint("eu-west-1", api,
                StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDPEER", "secret")))),
                UrlConnectionHttpClient.builder().build(), BUDGET, Clock.systemUTC());
    }

    private void serve(HttpExchange exchange) throws IOException {
        seen.put("method", exchange.getRequestMethod());
        seen.put("uri", exchange.getRequestURI().toString());
        seen.put("authorization", String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
        seen.put("body", new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        if (stall) {
            try {
                released.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }

    @AfterEach
    void stop() {
        released.countDown();
        regions.close();
        peer.stop(0);
    }

    @Test
    void aSessionIsPostedToThePeersRouteForItsRegionAloneSignedForThatRegion() {
        answer = "{\"Session\":{\"SessionId\":\"" + ID + "\",\"Region\":\"eu-west-1\",\"GameServerId\":\"gs-eu\"}}";

        Answer placed = regions.createSession("eu-west-1", REQUEST);

        assertThat(placed).isEqualTo(new Answer.Placed("gs-eu", answer));
        assertThat(seen.get("method")).isEqualTo("POST");
        assertThat(seen.get("uri")).isEqualTo("/game-server-groups/arena/sessions");
        assertThat(seen.get("authorization")).startsWith("AWS4-HMAC-SHA256 Credential=AKIDPEER/")
                .contains("/eu-west-1/execute-api/aws4_request");
        assertThat(seen.get("body")).isEqualTo("{\"SessionId\":\"" + ID + "\",\"SessionCookie\":\"map=dust\","
                + "\"InitialPlayers\":[\"p1\"],\"FilterOption\":{\"InstanceStatuses\":[\"ACTIVE\",\"DRAINING\"]},"
                + "\"PreferredRegions\":[\"eu-west-1\"]}");
        assertThat(regions.peers()).extracting(p -> p.region()).containsExactly("eu-west-1");
    }

    @Test
    void anErrorIsARefusalNamingItsStatusTypeAndMessage() {
        status = 400;
        answer = "{\"__type\":\"OutOfCapacityException\",\"message\":\"no game server could be claimed\"}";

        assertThat(regions.createSession("eu-west-1", REQUEST)).isEqualTo(new Answer.Refused(
                "answered 400 OutOfCapacityException: no game server could be claimed"));

        status = 502;
        answer = "";
        assertThat(regions.createSession("eu-west-1", REQUEST)).isEqualTo(new Answer.Refused("answered 502"));
    }

    @Test
    void aPeerThatDoesNotAnswerWithinTheBudgetIsGivenUp() {
        stall = true;

        Answer answer = regions.createSession("eu-west-1", REQUEST);

        assertThat(answer).isEqualTo(new Answer.Refused("did not answer within 300 ms"));
        assertThat(regions.qosServers("eu-west-1")).as("no beacons of a peer that does not answer").isEmpty();
    }

    @Test
    void aPeerThatCannotBeReachedIsARefusal() throws IOException {
        int closed;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = free.getLocalPort();
        }
        try (HttpPeerRegions unreachable = regionsAt(URI.create("http://127.0.0.1:" + closed))) {
            assertThat(unreachable.createSession("eu-west-1", REQUEST)).isInstanceOfSatisfying(Answer.Refused.class,
                    r -> assertThat(r.said()).startsWith("could not be reached"));
        }
    }

    @Test
    void thePeersBeaconsAreItsOwnRegionsListing() {
        answer = "{\"QosServers\":[{\"Region\":\"eu-west-1\",\"ServerUrl\":\"63.1.2.3\",\"Port\":3075},{\"Region\":\"x\"}]}";

        assertThat(regions.qosServers("eu-west-1")).containsExactly(new QosServer("63.1.2.3", 3075));
        assertThat(seen.get("uri")).isEqualTo("/qos-servers?Region=eu-west-1");
        assertThat(seen.get("method")).isEqualTo("GET");
    }
}
