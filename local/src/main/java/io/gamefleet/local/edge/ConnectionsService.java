package io.gamefleet.local.edge;

import io.gamefleet.catalog.PushChannel;
import io.gamefleet.local.edge.SigV4Verifier.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The push channel's management API, PostToConnection ({@code POST /@connections/{connectionId}},
 * the body the message's data), as the functions' ApiGatewayManagementApiClient calls it: signed
 * with SigV4 for {@code execute-api} by the functions' own principal (their role, in AWS), then
 * the data goes to the open connection as one text frame; 410 GoneException when it is not open.
 */
final class ConnectionsService implements EdgeService {
    private final PushSockets sockets;
    private final SigV4Verifier verifier;

    ConnectionsService(PushSockets sockets, Principal functions, String region, Clock clock) {
        this.sockets = sockets;
        this.verifier = new SigV4Verifier(region, Set.of(PushChannel.SIGNING_SERVICE),
                key -> key.equals(functions.accessKeyId()) ? Optional.of(functions.secretAccessKey()) : Optional.empty(),
                clock);
    }

    @Override
    public boolean handles(Exchange exchange) {
        return exchange.method().equals("POST") && connectionId(exchange.path()) != null;
    }

    @Override
    public void serve(Exchange exchange) throws IOException {
        Result result = verifier.verify(exchange.method(), exchange.path(), exchange.query(), exchange.headers(),
                exchange.body());
        if (result instanceof Result.Rejected rejected) {
            exchange.respondError(403, "ForbiddenException", "request signature rejected: " + rejected.reason());
            return;
        }
        String connectionId = connectionId(exchange.path());
        if (!sockets.post(connectionId, new String(exchange.body(), StandardCharsets.UTF_8))) {
            // the SDK reads the error's type from this header (API Gateway's REST JSON errors)
            exchange.addResponseHeader("x-amzn-ErrorType", "GoneException");
            exchange.respond(410, Exchange.JSON.writeValueAsString(Map.of("message",
                    "connection " + connectionId + " is not open")));
            return;
        }
        exchange.respond(200, "{}");
    }

    /** The connection id of a {@code /@connections/<id>} path ({@code @} sent as it is or escaped), or null. */
    private static String connectionId(String rawPath) {
        for (String prefix : new String[] {PushChannel.CONNECTIONS_PATH, PushChannel.CONNECTIONS_PATH.replace("@", "%40")}) {
            if (rawPath.startsWith(prefix) && rawPath.length() > prefix.length()
                    && rawPath.indexOf('/', prefix.length()) < 0) {
                return PercentEncoding.segment(rawPath.substring(prefix.length()));
            }
        }
        return null;
    }
}
