package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Route;
import io.gamefleet.domain.GamefleetException;

/**
 * How one of the API's doors carries an operation: where its input comes from, how its output and
 * its errors are written. The operation itself (validation, the domain call, the FleetIQ output
 * shape) is the same at every door.
 */
public interface WireProtocol {
    /** The operation's input, not yet validated. */
    ObjectNode input(APIGatewayV2HTTPEvent event, Route route);

    APIGatewayV2HTTPResponse output(Operation operation, JsonNode output);

    APIGatewayV2HTTPResponse error(GamefleetException error);
}
