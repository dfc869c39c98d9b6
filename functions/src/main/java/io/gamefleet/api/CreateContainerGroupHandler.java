package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.ContainerCompute;
import io.gamefleet.domain.ContainerCompute.ContainerCapacity;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerProtectionPolicy;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.json.Json;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.wiring.Services;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * CreateContainerGroup ({@link Routes#CREATE_CONTAINER_GROUP}): a game server group on an ECS
 * service. The members FleetIQ has shapes for (the name, sizes, strategy, protection policy,
 * AutoScalingPolicy, subnets, tags) are held to CreateGameServerGroup's; {@code TaskDefinition}
 * (a family, family:revision or ARN), {@code GameServerContainerName}, {@code Capacity}
 * (FARGATE_SPOT, the default, or EC2) and
 * {@code OnDemandBase} (0 to 100,000 tasks, FARGATE_SPOT only) are read here. The task definition
 * is asked of ECS and judged by the domain's rules before anything is stored; the answer is
 * CreateGameServerGroup's.
 */
public final class CreateContainerGroupHandler extends ExtensionHandler {
    /** What CreateGameServerGroup's members of the same names are, and the shapes they are held to. */
    private static final Map<String, String> FLEETIQ_MEMBERS = Map.of("GameServerGroupName", "GameServerGroupName",
            "MinSize", "WholeNumber", "MaxSize", "PositiveInteger", "BalancingStrategy", "BalancingStrategy",
            "GameServerProtectionPolicy", "GameServerProtectionPolicy", "AutoScalingPolicy", "GameServerGroupAutoScalingPolicy",
            "VpcSubnets", "VpcSubnets", "Tags", "TagList");
    private static final Set<String> MEMBERS = Set.of("GameServerGroupName", "MinSize", "MaxSize", "TaskDefinition",
            "GameServerContainerName", "Capacity", "OnDemandBase", "BalancingStrategy", "GameServerProtectionPolicy",
            "AutoScalingPolicy", "VpcSubnets", "Tags");
    /** A family (letters, digits, hyphens, underscores), with its revision, or its ARN. */
    private static final Pattern TASK_DEFINITION = Pattern.compile("[A-Za-z0-9_:/.\\-]{1,1600}");
    /** ECS's container names: up to 255 letters, digits, hyphens and underscores. */
    private static final Pattern CONTAINER_NAME = Pattern.compile("[A-Za-z0-9_\\-]{1,255}");
    /** ECS's most for a capacity provider's base. */
    static final int MAX_ON_DEMAND_BASE = 100_000;

    public CreateContainerGroupHandler() {
        this(Services.shared());
    }

    public CreateContainerGroupHandler(Services services) {
        super(Routes.CREATE_CONTAINER_GROUP, services);
    }

    @Override
    protected APIGatewayV2HTTPResponse serve(APIGatewayV2HTTPEvent event, Map<String, String> path, Caller caller,
            Optional<Role> role) {
        if (!caller.administrator()) {
            throw GamefleetException.unauthorized("only an administrator creates a game server group");
        }
        ObjectNode body = Json.readObject(Bodies.text(event));
        GameServerGroup draft = draft(body);
        JsonLog.with("group", draft.name());
        GameServerGroup created = services.groups().createContainerGroup(draft,
                services.taskDefinitions().describe(draft.containers().taskDefinition()));
        return RestJsonProtocol.respond(200, Outputs.wrap("GameServerGroup", Outputs.group(created)));
    }

    static GameServerGroup draft(ObjectNode body) {
        for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!MEMBERS.contains(name)) {
                throw GamefleetException.invalidRequest(name + ": is not a member of CreateContainerGroup's input");
            }
        }
        FLEETIQ_MEMBERS.forEach((member, shape) -> {
            JsonNode value = body.get(member);
            if (value != null) {
                MODEL.validateValue(shape, value, member);
            }
        });
        GameServerGroup.Builder draft = GameServerGroup.builder()
                .name(required(body, "GameServerGroupName").asText())
                .minSize(required(body, "MinSize").asInt())
                .maxSize(required(body, "MaxSize").asInt())
                .containers(new ContainerCompute(text(body, "TaskDefinition", TASK_DEFINITION, true),
                        text(body, "GameServerContainerName", CONTAINER_NAME, false), capacity(body.get("Capacity")),
                        onDemandBase(body.get("OnDemandBase"))));
        Optional.ofNullable(body.get("BalancingStrategy")).map(v -> BalancingStrategy.valueOf(v.asText()))
                .ifPresent(draft::balancingStrategy);
        Optional.ofNullable(body.get("GameServerProtectionPolicy"))
                .map(v -> GameServerProtectionPolicy.valueOf(v.asText())).ifPresent(draft::protectionPolicy);
        // The balancer applies it to the group's ECS service (ContainerTargetTracking), stored as an EC2 group's is.
        Optional.ofNullable(body.get("AutoScalingPolicy")).map(Inputs::autoScalingPolicy).ifPresent(draft::autoScalingPolicy);
        Optional.ofNullable(body.get("VpcSubnets")).map(v -> list(v).stream().map(JsonNode::asText).toList()).ifPresent(draft::vpcSubnets);
        Optional.ofNullable(body.get("Tags")).map(v -> list(v).stream().map(Inputs::tag).toList()).ifPresent(draft::tags);
        return draft.build();
    }

    private static JsonNode required(ObjectNode body, String member) {
        JsonNode value = body.get(member);
        if (value == null) {
            throw GamefleetException.invalidRequest(member + ": is required");
        }
        return value;
    }

    private static String text(ObjectNode body, String member, Pattern pattern, boolean isRequired) {
        JsonNode value = isRequired ? required(body, member) : body.get(member);
        if (value == null) {
            return null;
        }
        if (!value.isTextual() || !pattern.matcher(value.asText()).matches()) {
            throw GamefleetException.invalidRequest(member + ": must be a string matching " + pattern.pattern());
        }
        return value.asText();
    }

    private static ContainerCapacity capacity(JsonNode value) {
        if (value == null) {
            return ContainerCapacity.FARGATE_SPOT;
        }
        return Arrays.stream(ContainerCapacity.values()).filter(c -> value.isTextual() && c.name().equals(value.asText()))
                .findFirst().orElseThrow(() -> GamefleetException.invalidRequest("Capacity: must be one of "
                        + Arrays.toString(ContainerCapacity.values())));
    }

    private static int onDemandBase(JsonNode value) {
        if (value == null) {
            return 0;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.asInt() < 0
                || value.asInt() > MAX_ON_DEMAND_BASE) {
            throw GamefleetException.invalidRequest("OnDemandBase: must be a whole number from 0 to " + MAX_ON_DEMAND_BASE);
        }
        return value.asInt();
    }

    private static List<JsonNode> list(JsonNode array) {
        List<JsonNode> items = new java.util.ArrayList<>();
        array.forEach(items::add);
        return items;
    }
}
