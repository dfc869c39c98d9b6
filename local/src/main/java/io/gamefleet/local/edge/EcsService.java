package io.gamefleet.local.edge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Role;
import io.gamefleet.local.ecs.SimulatedEcs;
import io.gamefleet.local.ecs.SimulatedEcs.EcsException;
import java.io.IOException;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Amazon ECS's API ({@code POST /}, AWS JSON 1.1, {@code X-Amz-Target:
 * AmazonEC2ContainerServiceV20141113.<Operation>}), on the {@link SimulatedEcs}: SigV4-signed for
 * {@code ecs} by an ADMIN principal (the functions' own, or an administrator's: a game server's
 * keys are refused, as its IAM role holds no ECS action), the signature's time checked against the
 * clock it is given (the wall clock: the functions' ECS clients sign by it, while tests move the
 * simulation's). Errors are ECS's: 400 with {@code {"__type": ..., "message": ...}}.
 */
final class EcsService implements EdgeService {
    static final String TARGET_PREFIX = "AmazonEC2ContainerServiceV20141113.";
    private static final String CONTENT_TYPE = "application/x-amz-json-1.1";

    private final Map<String, Function<JsonNode, ObjectNode>> operations;
    private final PrincipalRegistry principals;
    private final Principal functions;
    private final SigV4Verifier verifier;

    /** {@code functions}: the functions' own principal, which the edge's registry (its API's callers) does not hold. */
    EcsService(SimulatedEcs ecs, PrincipalRegistry principals, Principal functions, String region, Clock clock,
            boolean allowUnsignedPayload) {
        this.operations = Map.ofEntries(
                Map.entry("RegisterTaskDefinition", ecs::registerTaskDefinition),
                Map.entry("DescribeTaskDefinition", ecs::describeTaskDefinition),
                Map.entry("DeregisterTaskDefinition", ecs::deregisterTaskDefinition),
                Map.entry("CreateService", ecs::createService),
                Map.entry("DescribeServices", ecs::describeServices),
                Map.entry("UpdateService", ecs::updateService),
                Map.entry("DeleteService", ecs::deleteService),
                Map.entry("ListTasks", ecs::listTasks),
                Map.entry("DescribeTasks", ecs::describeTasks),
                Map.entry("StopTask", ecs::stopTask),
                Map.entry("GetTaskProtection", ecs::getTaskProtection),
                Map.entry("UpdateTaskProtection", ecs::updateTaskProtection));
        this.principals = principals;
        this.functions = functions;
        this.verifier = new SigV4Verifier(region, Set.of("ecs"), key -> find(key).map(Principal::secretAccessKey), clock,
                allowUnsignedPayload);
    }

    private java.util.Optional<Principal> find(String accessKeyId) {
        return functions.accessKeyId().equals(accessKeyId) ? java.util.Optional.of(functions) : principals.find(accessKeyId);
    }

    @Override
    public boolean handles(Exchange exchange) {
        String target = exchange.headers().getFirst("X-Amz-Target");
        return exchange.isPost("/") && target != null && target.startsWith(TARGET_PREFIX);
    }

    @Override
    public void serve(Exchange exchange) throws IOException {
        String operation = exchange.headers().getFirst("X-Amz-Target").substring(TARGET_PREFIX.length());
        exchange.note(AccessLog.OPERATION, "ECS " + operation);
        SigV4Verifier.Result result = verifier.verify(exchange.method(), exchange.path(), exchange.query(),
                exchange.headers(), exchange.body());
        if (result instanceof SigV4Verifier.Result.Rejected rejected) {
            error(exchange, 403, "InvalidSignatureException", rejected.message());
            return;
        }
        Principal principal = find(((SigV4Verifier.Result.Accepted) result).accessKeyId()).orElse(null);
        if (principal == null) { // taken back since the check
            error(exchange, 403, "UnrecognizedClientException", "The security token included in the request is invalid.");
            return;
        }
        exchange.note(AccessLog.CALLER, principal.callerArn());
        if (principal.role() != Role.ADMIN) {
            error(exchange, 400, "AccessDeniedException", principal.callerArn() + " is not authorized to perform: ecs:"
                    + operation);
            return;
        }
        Function<JsonNode, ObjectNode> handler = operations.get(operation);
        if (handler == null) {
            error(exchange, 400, "UnknownOperationException", "the simulated ECS has no operation " + operation);
            return;
        }
        JsonNode request;
        try {
            request = exchange.body().length == 0 ? Exchange.JSON.createObjectNode()
                    : Exchange.JSON.readTree(exchange.body());
        } catch (JsonProcessingException e) {
            error(exchange, 400, "SerializationException", "the body is not valid JSON: " + e.getOriginalMessage());
            return;
        }
        if (request == null || !request.isObject()) {
            error(exchange, 400, "SerializationException", "the body must be a JSON object");
            return;
        }
        ObjectNode answer;
        try {
            answer = handler.apply(request);
        } catch (EcsException e) {
            error(exchange, 400, e.type(), e.getMessage());
            return;
        }
        exchange.addResponseHeader("Content-Type", CONTENT_TYPE);
        exchange.respond(200, answer.toString());
    }

    /** ECS's error shape: {@code __type} and a lower-case {@code message}. */
    private static void error(Exchange exchange, int status, String type, String message) throws IOException {
        exchange.addResponseHeader("Content-Type", CONTENT_TYPE);
        exchange.respond(status, Exchange.JSON.createObjectNode().put("__type", type).put("message", message).toString());
    }
}
