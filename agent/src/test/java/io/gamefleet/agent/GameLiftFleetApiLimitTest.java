package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.gamelift.GameLiftClient;

/**
 * How the agent takes Gamefleet's refusal of a registration past the stage's maxGameServersPerInstance
 * (LimitExceededException, AWS JSON 1.1 as the JSON door answers it): a configuration error, said
 * as one, a refusal that leaves nothing registered, left to FleetSync's backoff, never a tight loop.
 */
class GameLiftFleetApiLimitTest {
    private final Server server = new Server();
    private final List<String> targets = new CopyOnWriteArrayList<>();
    private GameLiftClient client;

    @BeforeEach
    void aGamefleetThatRefusesEveryRegistrationForTheCap() throws Exception {
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                targets.add(request.getHeaders().get("X-Amz-Target"));
                response.setStatus(400);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/x-amz-json-1.1");
                response.getHeaders().put("x-amzn-ErrorType", "LimitExceededException");
                response.write(true, ByteBuffer.wrap(("{\"__type\":\"LimitExceededException\",\"message\":\"instance i-1 has 16"
                        + " game servers registered, the most one instance may have; deregister one first\"}")
                        .getBytes(StandardCharsets.UTF_8)), callback);
                return true;
            }
        });
        server.start();
        client = GameLiftClient.builder().region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .endpointOverride(URI.create("http://127.0.0.1:" + connector.getLocalPort())).build();
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        server.stop();
    }

    @Test
    void aRegistrationPastTheStagesCapIsAConfigurationErrorLeftToTheBackoff() {
        FleetApi api = new GameLiftFleetApi(client, "arena", "i-1");
        FleetApi.Refused e = catchThrowableOfType(FleetApi.Refused.class, () -> api.register("gs-17", "127.0.0.1:7777"));
        assertThat(e).hasMessage("a configuration error: this instance already has the most game servers the stage's"
                + " maxGameServersPerInstance allows (instance i-1 has 16 game servers registered, the most one instance"
                + " may have; deregister one first); run fewer processes, or raise maxGameServersPerInstance");
        assertThat(targets).containsExactly("GameLift.RegisterGameServer");
    }
}
