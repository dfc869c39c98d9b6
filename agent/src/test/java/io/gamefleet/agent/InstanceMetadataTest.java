package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.imds.Ec2MetadataClient;
import software.amazon.awssdk.imds.Ec2MetadataResponse;
import software.amazon.awssdk.imds.Ec2MetadataRetryPolicy;

/**
 * IMDSv2 through the SDK's Ec2MetadataClient, against a metadata service over a socket that can
 * refuse every token it gave before its TTL, as EC2's does when it restarts: the agent takes a new
 * token and reads on.
 */
class InstanceMetadataTest {
    private final Server server = new Server();
    private final Set<String> validTokens = ConcurrentHashMap.newKeySet();
    private final AtomicInteger tokensGiven = new AtomicInteger();
    private final AtomicInteger unauthorized = new AtomicInteger();
    private URI endpoint;
    private volatile boolean refuseEveryToken;

    @BeforeEach
    void aMetadataService() throws Exception {
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                String path = Request.getPathInContext(request);
                if (request.getMethod().equals("PUT") && path.equals("/latest/api/token")) {
                    String token = "token-" + tokensGiven.incrementAndGet();
                    validTokens.add(token);
                    response.getHeaders().put("X-aws-ec2-metadata-token-ttl-seconds",
                            request.getHeaders().get("X-aws-ec2-metadata-token-ttl-seconds"));
                    return answer(response, callback, 200, token);
                }
                if (refuseEveryToken || !validTokens.contains(String.valueOf(request.getHeaders().get("X-aws-ec2-metadata-token")))) {
                    unauthorized.incrementAndGet();
                    return answer(response, callback, 401, "");
                }
                return path.equals(InstanceMetadata.INSTANCE_ID) ? answer(response, callback, 200, "i-0abc")
                        : answer(response, callback, 404, "Not Found");
            }
        });
        server.start();
        endpoint = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    private static boolean answer(Response response, Callback callback, int status, String body) {
        response.setStatus(status);
        response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
        return true;
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    /** Built as the agent builds it: no retries of its own (the watcher polls again), short timeouts. */
    private Ec2MetadataClient client() {
        return Ec2MetadataClient.builder().endpoint(endpoint).retryPolicy(Ec2MetadataRetryPolicy.none())
                .httpClient(UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofSeconds(1))
                        .socketTimeout(Duration.ofSeconds(2))).build();
    }

    @Test
    void aTokenRefusedBeforeItsTtlIsReplacedAndTheReadGoesThrough() {
        InstanceMetadata metadata = InstanceMetadata.of(this::client);
        assertThat(metadata.get(InstanceMetadata.INSTANCE_ID)).contains("i-0abc");
        assertThat(metadata.get(InstanceMetadata.INSTANCE_ID)).contains("i-0abc");
        assertThat(tokensGiven).as("one token while it is valid").hasValue(1);

        validTokens.clear(); // the service restarted: the token the client cached for 6 h is refused
        assertThat(metadata.get(InstanceMetadata.INSTANCE_ID)).contains("i-0abc");
        assertThat(unauthorized).hasValue(1);
        assertThat(tokensGiven).hasValue(2);
        assertThat(metadata.get(InstanceMetadata.SPOT_INSTANCE_ACTION)).as("404: no notice").isEqualTo(Optional.empty());
        assertThat(tokensGiven).hasValue(2);
    }

    @Test
    void theSdkClientAloneKeepsItsRefusedToken() {
        // Why the agent renews it: the SDK's client sends the refused token again on every read.
        try (Ec2MetadataClient client = client()) {
            assertThat(client.get(InstanceMetadata.INSTANCE_ID).asString()).isEqualTo("i-0abc");
            validTokens.clear();
            assertThatThrownBy(() -> client.get(InstanceMetadata.INSTANCE_ID)).hasMessageContaining("401");
            assertThatThrownBy(() -> client.get(InstanceMetadata.INSTANCE_ID)).hasMessageContaining("401");
            assertThat(tokensGiven).hasValue(1);
        }
    }

    @Test
    void aServiceThatKeepsRefusingIsAnErrorNotALoop() {
        InstanceMetadata metadata = InstanceMetadata.of(this::client);
        refuseEveryToken = true;
        assertThatThrownBy(() -> metadata.get(InstanceMetadata.INSTANCE_ID)).hasMessageContaining("401");
        assertThat(tokensGiven).as("one new token per read, no more").hasValue(2);
    }

    @Test
    void theClientOfARefusedTokenIsClosedWhenItIsReplaced() {
        List<Boolean> closed = new CopyOnWriteArrayList<>();
        InstanceMetadata metadata = InstanceMetadata.of(() -> {
            Ec2MetadataClient client = client();
            int index = closed.size();
            closed.add(false);
            return new Ec2MetadataClient() {
                @Override
                public Ec2MetadataResponse get(String path) {
                    return client.get(path);
                }

                @Override
                public void close() {
                    closed.set(index, true);
                    client.close();
                }
            };
        });
        assertThat(metadata.get(InstanceMetadata.INSTANCE_ID)).contains("i-0abc");
        validTokens.clear();
        assertThat(metadata.get(InstanceMetadata.INSTANCE_ID)).contains("i-0abc");
        assertThat(closed).containsExactly(true, false);
    }
}
