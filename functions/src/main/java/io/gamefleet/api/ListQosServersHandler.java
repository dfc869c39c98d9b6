package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.QosServers.QosServer;
import io.gamefleet.json.Json;
import io.gamefleet.wiring.Services;
import java.util.Map;
import java.util.Optional;

/**
 * ListQosServers ({@link Routes#LIST_QOS_SERVERS}): PlayFab's ListQosServersForTitle answer,
 * {@code {"QosServers": [{"Region", "ServerUrl", "Port"}]}}, a few beacons of this stage's region
 * (the only region listed: stages do not peer yet). It takes no query and no body.
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
        ObjectNode out = Json.NODES.objectNode();
        ArrayNode servers = out.putArray("QosServers");
        for (QosServer server : services.qosServers().list()) {
            servers.addObject().put("Region", services.settings().region()).put("ServerUrl", server.address())
                    .put("Port", server.port());
        }
        return RestJsonProtocol.respond(200, out);
    }
}
