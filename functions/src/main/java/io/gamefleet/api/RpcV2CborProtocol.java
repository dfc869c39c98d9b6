package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.cbor.CBORGenerator;
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Route;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * Smithy RPC v2 CBOR, which newer GameLift SDKs prefer: {@code POST /service/GameLift/operation/<Operation>}
 * with a CBOR body, {@code smithy-protocol: rpc-v2-cbor} on requests and responses, timestamps as
 * CBOR tag 1 (epoch seconds), errors a 400 (a 500 for an internal one) whose {@code __type} is the
 * error's absolute shape ID ({@code com.amazonaws.gamelift#NotFoundException}), and no body at all
 * for an operation without an output shape (DeregisterGameServer). A request that carries an
 * {@code X-Amz-Target} or {@code X-Amzn-Target} header is refused, as the specification requires.
 * API Gateway hands binary bodies over base64-encoded and takes them back the same way.
 */
final class RpcV2CborProtocol implements WireProtocol {
    static final String HEADER = "smithy-protocol";
    static final String PROTOCOL = "rpc-v2-cbor";
    static final String CONTENT_TYPE = "application/cbor";
    private static final int EPOCH_SECONDS_TAG = 1;
    /** The namespace of GameLift's Smithy model, which an error's {@code __type} names it in. */
    static final String SHAPE_NAMESPACE = "com.amazonaws.gamelift#";
    /** Made on the first CBOR request: the REST routes, most functions' only door, never need it. */
    private static final class Cbor {
        static final CBORMapper MAPPER = new CBORMapper();
    }

    private final ModelValidator model;

    RpcV2CborProtocol(ModelValidator model) {
        this.model = model;
    }

    /** Whether the request came through an operation's CBOR path. */
    static boolean carries(APIGatewayV2HTTPEvent event) {
        String routeKey = event.getRouteKey() != null ? event.getRouteKey()
                : event.getRequestContext() == null ? null : event.getRequestContext().getRouteKey();
        if (routeKey != null && routeKey.contains("/service/")) {
            return true;
        }
        return event.getHeaders() != null && event.getHeaders().entrySet().stream()
                .anyMatch(h -> h.getKey().equalsIgnoreCase(HEADER) && PROTOCOL.equals(h.getValue()));
    }

    @Override
    public ObjectNode input(APIGatewayV2HTTPEvent event, Route route) {
        if (event.getHeaders() != null && event.getHeaders().keySet().stream()
                .anyMatch(h -> h.equalsIgnoreCase("x-amz-target") || h.equalsIgnoreCase("x-amzn-target"))) {
            throw GamefleetException.invalidRequest("an rpc-v2-cbor request must not carry X-Amz-Target or X-Amzn-Target");
        }
        byte[] body = Bodies.bytes(event);
        if (body.length == 0) {
            return Json.NODES.objectNode();
        }
        JsonNode parsed;
        try {
            parsed = Cbor.MAPPER.readTree(body);
        } catch (IOException e) {
            throw GamefleetException.invalidRequest("the request body is not valid CBOR");
        }
        if (!(parsed instanceof ObjectNode object)) {
            throw GamefleetException.invalidRequest("the request body must be a CBOR map");
        }
        return object;
    }

    @Override
    public APIGatewayV2HTTPResponse output(Operation operation, JsonNode output) {
        Optional<String> shape = model.outputShape(operation.fleetIqName());
        if (shape.isEmpty()) {
            // No output shape: no body, and no Content-Type.
            return APIGatewayV2HTTPResponse.builder().withStatusCode(200).withHeaders(Map.of(HEADER, PROTOCOL)).build();
        }
        return respond(200, encode(output, shape));
    }

    @Override
    public APIGatewayV2HTTPResponse error(GamefleetException e) {
        // The type is in the body only: the specification says not to send X-Amzn-ErrorType.
        ObjectNode body = Json.NODES.objectNode().put("__type", SHAPE_NAMESPACE + e.errorType())
                .put("message", e.getMessage());
        return respond(AwsJsonProtocol.rpcStatus(e.kind()), encode(body, Optional.empty()));
    }

    private static APIGatewayV2HTTPResponse respond(int status, byte[] body) {
        Map<String, String> headers = new java.util.HashMap<>();
        headers.put("Content-Type", CONTENT_TYPE);
        headers.put(HEADER, PROTOCOL);
        return APIGatewayV2HTTPResponse.builder().withStatusCode(status).withHeaders(headers)
                .withBody(Base64.getEncoder().encodeToString(body)).withIsBase64Encoded(true).build();
    }

    /** Writes the value as CBOR, walking the model's shape so that timestamps get their tag. */
    private byte[] encode(JsonNode value, Optional<String> shape) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (CBORGenerator generator = Cbor.MAPPER.getFactory().createGenerator(out)) {
            write(generator, value, shape);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private void write(CBORGenerator g, JsonNode value, Optional<String> shape) throws IOException {
        String type = shape.map(model::typeOf).orElse("");
        if (value.isObject()) {
            g.writeStartObject(value, value.size());
            for (Iterator<Map.Entry<String, JsonNode>> fields = value.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                g.writeFieldName(field.getKey());
                write(g, field.getValue(), shape.flatMap(s -> model.shapeOf(s, field.getKey())));
            }
            g.writeEndObject();
        } else if (value.isArray()) {
            g.writeStartArray(value, value.size());
            for (JsonNode item : value) {
                write(g, item, shape.flatMap(s -> model.shapeOf(s, null)));
            }
            g.writeEndArray();
        } else if (type.equals("timestamp") && value.isNumber()) {
            g.writeTag(EPOCH_SECONDS_TAG);
            g.writeNumber(value.doubleValue());
        } else if (value.isTextual()) {
            g.writeString(value.textValue());
        } else if (value.isBoolean()) {
            g.writeBoolean(value.booleanValue());
        } else if (value.isIntegralNumber()) {
            g.writeNumber(value.longValue());
        } else if (value.isNumber()) {
            g.writeNumber(value.doubleValue());
        } else {
            g.writeNull();
        }
    }
}
