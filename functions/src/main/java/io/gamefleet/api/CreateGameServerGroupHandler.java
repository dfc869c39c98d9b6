package io.gamefleet.api;

import io.gamefleet.catalog.Operation;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerProtectionPolicy;
import io.gamefleet.domain.LaunchTemplate;
import io.gamefleet.wiring.Services;
import java.util.List;

/** CreateGameServerGroup: Stores a new group (NEW) and starts its activation workflow. */
public final class CreateGameServerGroupHandler extends ApiHandler {
    public CreateGameServerGroupHandler() {
        this(Services.shared());
    }

    public CreateGameServerGroupHandler(Services services) {
        super(Operation.CREATE_GAME_SERVER_GROUP, services);
    }

    @Override
    protected JsonNode handle(ApiRequest request) {
        ObjectNode in = request.input();
        JsonNode template = in.get("LaunchTemplate");
        GameServerGroup.Builder draft = GameServerGroup.builder()
                .name(request.string("GameServerGroupName"))
                .roleArn(request.string("RoleArn"))
                .minSize(in.get("MinSize").asInt())
                .maxSize(in.get("MaxSize").asInt())
                .launchTemplate(new LaunchTemplate(text(template, "LaunchTemplateId"),
                        text(template, "LaunchTemplateName"), text(template, "Version")))
                .instanceDefinitions(request.optionalList("InstanceDefinitions", Inputs::instanceDefinition).orElseThrow())
                .vpcSubnets(request.optionalStrings("VpcSubnets").orElse(List.of()))
                .tags(request.optionalList("Tags", Inputs::tag).orElse(List.of()));
        request.optionalEnum("BalancingStrategy", BalancingStrategy.class).ifPresent(draft::balancingStrategy);
        request.optionalEnum("GameServerProtectionPolicy", GameServerProtectionPolicy.class)
                .ifPresent(draft::protectionPolicy);
        JsonNode policy = in.get("AutoScalingPolicy");
        if (policy != null) {
            draft.autoScalingPolicy(Inputs.autoScalingPolicy(policy));
        }
        return Outputs.wrap("GameServerGroup", Outputs.group(services.groups().create(draft.build())));
    }

    private static String text(JsonNode node, String member) {
        JsonNode v = node.get(member);
        return v == null ? null : v.asText();
    }
}
