package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.PeerRegions.Peer;
import io.gamefleet.json.Json;
import io.gamefleet.wiring.Services;
import java.util.Map;
import java.util.Optional;

/**
 * ListRegions ({@link Routes#LIST_REGIONS}): this stage's region, then its peers' with their API
 * URLs, {@code {"Regions": [{"Region", "Home": true}, {"Region", "ApiUrl"}]}}. Nothing is read.
 */
public final class ListRegionsHandler extends ExtensionHandler {
    public ListRegionsHandler() {
        this(Services.shared());
    }

    public ListRegionsHandler(Services services) {
        super(Routes.LIST_REGIONS, services);
    }

    @Override
    protected APIGatewayV2HTTPResponse serve(APIGatewayV2HTTPEvent event, Map<String, String> path, Caller caller,
            Optional<Role> role) {
        noBody(event);
        ObjectNode out = Json.NODES.objectNode();
        ArrayNode regions = out.putArray("Regions");
        regions.addObject().put("Region", services.settings().region()).put("Home", true);
        for (Peer peer : services.peers().peers()) {
            regions.addObject().put("Region", peer.region()).put("ApiUrl", peer.apiUrl());
        }
        return RestJsonProtocol.respond(200, out);
    }
}
