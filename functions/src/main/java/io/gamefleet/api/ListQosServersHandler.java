package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.PeerRegions.Peer;
import io.gamefleet.domain.QosServers.QosServer;
import io.gamefleet.json.Json;
import io.gamefleet.wiring.Services;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * ListQosServers ({@link Routes#LIST_QOS_SERVERS}): PlayFab's ListQosServersForTitle answer,
 * {@code {"QosServers": [{"Region", "ServerUrl", "Port"}]}}: a few beacons of this stage's region,
 * then each peer's as it answers within the peer budget (none of a peer that does not). Its query's
 * {@code Region} lists that region's alone: this stage's, or a peer's as the peer answers it (what a
 * stage asks its peers). It takes no body.
 */
public final class ListQosServersHandler extends ExtensionHandler {
    public ListQosServersHandler() {
        this(Services.shared());
    }

    public ListQosServersHandler(Services services) {
        super(Routes.LIST_QOS_SERVERS, services);
    }

    @Override
    protected APIGatewayV2HTTPResponse serve(APIGatewayV2HTTPEvent event, Map<String, String> path, Caller caller,
            Optional<Role> role) {
        noBody(event);
        String home = services.settings().region();
        List<String> peers = services.peers().peers().stream().map(Peer::region).toList();
        Optional<String> only = Optional.ofNullable(query(event).get("Region"));
        if (only.isPresent() && !only.get().equals(home) && !peers.contains(only.get())) {
            throw GamefleetException.invalidRequest("Region: " + only.get() + " is not a region of this deployment "
                    + Stream.concat(Stream.of(home), peers.stream()).toList());
        }
        ObjectNode out = Json.NODES.objectNode();
        ArrayNode servers = out.putArray("QosServers");
        if (only.isEmpty() || only.get().equals(home)) {
            add(servers, home, services.qosServers().list());
        }
        for (String peer : peers) {
            if (only.isEmpty() || only.get().equals(peer)) {
                add(servers, peer, services.peers().qosServers(peer));
            }
        }
        return RestJsonProtocol.respond(200, out);
    }

    private static void add(ArrayNode servers, String region, List<QosServer> listed) {
        for (QosServer server : listed) {
            servers.addObject().put("Region", region).put("ServerUrl", server.address()).put("Port", server.port());
        }
    }
}
