package io.gamefleet.local;

import static io.gamefleet.local.LocalProfileExtension.ADMIN;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.Operation;
import io.gamefleet.local.edge.Principal;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The edge's HTTP layer under what clients get wrong or do on purpose: malformed percent-escapes
 * and request lines are JSON refusals like every other, a body over API Gateway's 10 MB is refused
 * before it is read, and clients that send a request slowly (or never finish it) hold no worker.
 */
class EdgeHttpTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension()
            .localOnly("requests no HTTP client sends, written to the edge's socket");

    private static RawHttp raw;
    /** The Host header the edge takes (it refuses any other, before the body is read). */
    private static String HOST;

    @BeforeAll
    static void connect() {
        raw = new RawHttp(LOCAL.profile().endpoint());
        HOST = LOCAL.profile().endpoint().getAuthority();
    }

    private static RawHttp.Answer signedGet(String target) {
        return raw.signed(ADMIN, LOCAL.clock(), "GET", target, null);
    }

    @Test
    void malformedPercentEscapesAreJsonRefusals() {
        // Well-formed escapes that decode to what is not a name or a token: the handler's 400.
        signedGet("/game-server-groups/%25zz").refusal(400, "InvalidRequestException");
        signedGet("/game-server-groups?NextToken=%25").refusal(400, "InvalidRequestException");
        // Decoded once: %2541 is the name "%41" (not valid: 400), never "A" (a group that does not exist: 404).
        assertThat(signedGet("/game-server-groups/%2541").refusal(400, "InvalidRequestException"))
                .contains("GameServerGroupName");
        signedGet("/game-server-groups/%41").refusal(404, "NotFoundException");
        // Malformed escapes: the edge's 400, whether signed or not.
        for (String target : List.of("/game-server-groups/%zz", "/game-server-groups/%", "/game-server-groups/a%2",
                "/game-server-groups/%C3%28", "/game-server-groups?NextToken=%zz", "/game-server-groups?Limit=%")) {
            // (no SigV4 signer signs such a path: the edge refuses it before looking at the signature)
            assertThat(raw.exchange("GET " + target + " HTTP/1.1\r\nHost: " + HOST + "\r\nAuthorization: AWS4-HMAC-SHA256 "
                    + "Credential=local-admin/20250101/us-east-1/execute-api/aws4_request, SignedHeaders=host, "
                    + "Signature=00\r\n\r\n").refusal(400, "InvalidRequestException")).as(target)
                    .containsAnyOf("percent-encoding", "escape", "hex");
            raw.exchange("GET " + target + " HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n").refusal(400, "InvalidRequestException");
        }
        assertThat(raw.exchange("POST /2015-03-31/functions/%zz/invocations HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Length: 2\r\n\r\n{}")
                .refusal(400, "InvalidRequestException")).contains("percent-encoding");
    }

    @Test
    void aWrongMethodOnARoutesPathIs405WithItsMethods() {
        // No route, so nothing is signed yet: unsigned and signed callers get the same answer.
        RawHttp.Answer put = raw.exchange("PUT /game-server-groups HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Length: 0\r\n\r\n");
        assertThat(put.refusal(405, "MethodNotAllowedException")).isEqualTo("no route for PUT /game-server-groups; its"
                + " methods are GET, POST");
        assertThat(put.headers().get("allow")).isEqualTo("GET, POST");
        RawHttp.Answer signed = raw.signed(ADMIN, LOCAL.clock(), "POST", "/game-server-groups/arena", "{}");
        signed.refusal(405, "MethodNotAllowedException");
        assertThat(signed.headers().get("allow")).isEqualTo("DELETE, GET, PATCH");
        // The JSON door and the CBOR paths are POST's.
        assertThat(signedGet("/").headers().get("allow")).isEqualTo("POST");
        assertThat(signedGet(Operation.LIST_GAME_SERVER_GROUPS.cborPath()).headers().get("allow")).isEqualTo("POST");
        // A path that is no route's stays a 404, whatever the method.
        signedGet("/no-such-route").refusal(404, "NotFoundException");
        raw.exchange("PUT /no-such-route HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Length: 0\r\n\r\n")
                .refusal(404, "NotFoundException");
    }

    @Test
    void aSignatureThatDoesNotMatchNamesItsLikelyCause() {
        Principal wrongSecret = new Principal(ADMIN.accessKeyId(), ADMIN.secretAccessKey() + "x", ADMIN.role(),
                ADMIN.instanceId());
        assertThat(raw.signed(wrongSecret, LOCAL.clock(), "GET", "/game-server-groups", null)
                .refusal(403, "UnauthorizedException"))
                .startsWith("request signature rejected: signature does not match; likely cause: the secret does not"
                        + " match the access key's (or the request was changed in flight). The Canonical String");
    }

    @Test
    void requestsThatAreNotHttpAreJsonRefusals() {
        for (String request : List.of("GARBAGE\r\n\r\n", "GET /game-server-groups\r\n\r\n",
                "GET /game-server-groups HTTP/1.1\r\nNo colon here\r\n\r\n",
                "GET /game-server-groups HTTP/1.1\r\nHost: " + HOST + "\r\n folded: line\r\n\r\n",
                "GET /game-server-groups/\u00e9t\u00e9 HTTP/1.1\r\nHost: " + HOST + "\r\n\r\n",
                "GET game-server-groups HTTP/1.1\r\n\r\n", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
                "G(T / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
                "POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nab",
                "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
                "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")) {
            raw.exchange(request).refusal(400, "InvalidRequestException");
        }
        raw.exchange("GET / HTTP/1.1\r\nX-Big: " + "a".repeat(70_000) + "\r\n\r\n").refusal(431, "InvalidRequestException");
    }

    @Test
    void bodiesOverTenMegabytesAreRefusedBeforeTheyAreRead() {
        // Only the head is sent: the answer cannot wait for the body.
        String message = raw.exchange("POST /game-server-groups HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Type: application/json\r\n"
                + "Content-Length: 10485761\r\n\r\n").refusal(413, "InvalidRequestException");
        assertThat(message).contains("10485761").contains("10485760");
        // Chunked: refused as the body grows past the limit, whatever the rest of the chunk (never sent here).
        assertThat(raw.exchange("POST /game-server-groups HTTP/1.1\r\nHost: " + HOST + "\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "100000\r\n" + "a".repeat(0x100000) + "\r\n" + "A00000\r\n" + "a".repeat(0x900001))
                .refusal(413, "InvalidRequestException")).contains("chunked request body grew larger than 10485760 bytes");
        // 10 MB itself is taken (and then refused for what it is).
        StringBuilder tenMegabytes = new StringBuilder("{\"GameServerGroupName\":\"");
        tenMegabytes.append("a".repeat(10 * 1024 * 1024 - tenMegabytes.length() - 2)).append("\"}");
        assertThat(tenMegabytes).hasSize(10 * 1024 * 1024);
        raw.signed(ADMIN, LOCAL.clock(), "POST", "/game-server-groups", tenMegabytes.toString())
                .refusal(400, "InvalidRequestException");
    }

    @Test
    void chunkedBodiesAndKeptAliveConnectionsWork() throws IOException {
        try (Socket socket = raw.connect()) {
            OutputStream out = socket.getOutputStream();
            // Two requests on one connection, the second sent before the first is answered.
            out.write(("GET /_local/health HTTP/1.1\r\nHost: " + HOST + "\r\n\r\nPOST /_local/events HTTP/1.1\r\nHost: " + HOST + "\r\n"
                    + "X-Gamefleet-Local-Token: " + LOCAL.profile().localToken() + "\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n3\r\n[{}\r\n1;ext=1\r\n]\r\n0\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            RawHttp.Answer health = RawHttp.read(socket.getInputStream());
            assertThat(health.status()).as("%s", health).isEqualTo(200);
            RawHttp.Answer events = RawHttp.read(socket.getInputStream());
            assertThat(events.status()).as("%s", events).isEqualTo(200);
            assertThat(events.json().get("Matched").asInt()).isZero();
        }
    }

    @Test
    void slowClientsDoNotHoldTheEdge() throws Exception {
        // More connections than the edge has workers, each with 1 byte of a 100-byte body.
        List<Socket> slow = new ArrayList<>();
        try {
            for (int i = 0; i < 100; i++) {
                Socket s = raw.connect();
                s.getOutputStream().write(("POST /game-server-groups HTTP/1.1\r\nHost: " + HOST + "\r\nContent-Type: application/json"
                        + "\r\nContent-Length: 100\r\n\r\n{").getBytes(StandardCharsets.ISO_8859_1));
                s.getOutputStream().flush();
                slow.add(s);
            }
            GamefleetClient admin = LOCAL.admin();
            CompletableFuture<GamefleetClient.Response> list = CompletableFuture.supplyAsync(() -> admin.listGroups(""));
            assertThat(list.get(15, TimeUnit.SECONDS).status()).isEqualTo(200);
            assertThat(admin.callUnsigned("GET", "/_local/health", null).status()).isEqualTo(200);
        } finally {
            for (Socket s : slow) {
                s.close();
            }
        }
    }
}
