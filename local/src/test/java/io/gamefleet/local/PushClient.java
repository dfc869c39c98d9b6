package io.gamefleet.local;

import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.local.demo.ApiClient;
import io.gamefleet.local.edge.Principal;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.exceptions.UpgradeException;
import org.eclipse.jetty.websocket.client.ClientUpgradeRequest;
import org.eclipse.jetty.websocket.client.WebSocketClient;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * A test's agent end of the push channel: Jetty's WebSocket client, the upgrade signed with SigV4
 * ({@code execute-api}) as the agent signs it, every text frame received kept in order; its close
 * returns once the server answered it.
 */
public final class PushClient implements AutoCloseable {
    /** The upgrade's outcome: the session, or the status it was refused with. */
    record Connected(PushClient client, int refusedWith) {}

    private final WebSocketClient jetty = new WebSocketClient();
    private final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    /** Completes when the server's close frame arrived: after its $disconnect ran. */
    private final java.util.concurrent.CompletableFuture<Void> closedByServer = new java.util.concurrent.CompletableFuture<>();
    private Session session;

    private PushClient() throws Exception {
        jetty.start();
    }

    /** Connects as {@code principal} for the instance; {@code refusedWith} is the upgrade's status when refused. */
    static Connected connect(URI endpoint, Principal principal, Clock clock, String group, String instanceId)
            throws Exception {
        return connect(endpoint, principal, clock, group, instanceId, "");
    }

    /** The same, the connect's query ending in {@code moreQuery} (say "&qosPort=3075"). */
    static Connected connect(URI endpoint, Principal principal, Clock clock, String group, String instanceId,
            String moreQuery) throws Exception {
        PushClient client = new PushClient();
        String target = PushChannel.LOCAL_PATH + "?" + PushChannel.GROUP_NAME_PARAMETER + "=" + group + "&"
                + PushChannel.INSTANCE_ID_PARAMETER + "=" + instanceId + moreQuery;
        ClientUpgradeRequest upgrade = new ClientUpgradeRequest();
        ApiClient.signedHeaders(endpoint, LocalAccount.REGION,
                AwsCredentialsIdentity.create(principal.accessKeyId(), principal.secretAccessKey()), clock, "GET", target,
                false, new byte[0]).forEach((name, values) -> {
                    if (!name.equalsIgnoreCase("host")) {
                        upgrade.setHeader(name, values);
                    }
                });
        URI ws = URI.create("ws://" + endpoint.getAuthority() + target);
        try {
            client.session = client.jetty.connect(client.new Listener(), ws, upgrade).get(10, TimeUnit.SECONDS);
            return new Connected(client, 0);
        } catch (ExecutionException e) {
            client.close();
            if (e.getCause() instanceof UpgradeException refused) {
                return new Connected(null, refused.getResponseStatusCode());
            }
            throw e;
        }
    }

    /** The next text frame within {@code timeout}, or an AssertionError. */
    String next(Duration timeout) throws InterruptedException {
        String message = received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (message == null) {
            throw new AssertionError("no message within " + timeout.toMillis() + " ms");
        }
        return message;
    }

    boolean nothingReceived() {
        return received.isEmpty();
    }

    void send(String text) throws Exception {
        Callback.Completable sent = new Callback.Completable();
        session.sendText(text, sent);
        sent.get(5, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws Exception {
        if (session != null && session.isOpen()) {
            session.close(1000, "done", Callback.NOOP);
            try {
                closedByServer.get(5, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                // stopping the client ends it
            }
        }
        jetty.stop();
    }

    public final class Listener implements Session.Listener.AutoDemanding {
        @Override
        public void onWebSocketText(String message) {
            received.add(message);
        }

        @Override
        public void onWebSocketClose(int statusCode, String reason) {
            closedByServer.complete(null);
        }
    }
}
