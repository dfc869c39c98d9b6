package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.ClaimStrategy;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.json.Json;
import io.gamefleet.logging.JsonLog;
import io.gamefleet.wiring.Services;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * PutClaimStrategy ({@link Routes#PUT_CLAIM_STRATEGY}): sets the order in which the group's claims
 * take its servers. The body is {@code {"ClaimStrategy": ...}}, one of {@link ClaimStrategy}'s
 * names, checked before anything is read; the answer is DescribeClaimStrategy's.
 */
public final class PutClaimStrategyHandler extends ExtensionHandler {
    private static final String MEMBER = "ClaimStrategy";
    private static final String NAMES = Arrays.stream(ClaimStrategy.values()).map(Enum::name)
            .collect(Collectors.joining(", "));

    public PutClaimStrategyHandler() {
        this(Services.shared());
    }

    public PutClaimStrategyHandler(Services services) {
        super(Routes.PUT_CLAIM_STRATEGY, services);
    }

    @Override
    protected APIGatewayV2HTTPResponse serve(APIGatewayV2HTTPEvent event, Map<String, String> path, Caller caller,
            Optional<Role> role) {
        if (!caller.administrator()) { // IAM lets only an ADMIN in; refused here too
            throw GamefleetException.unauthorized("only an administrator sets a group's claim strategy");
        }
        String group = member(path, "GameServerGroupName", "GameServerGroupNameOrArn");
        ClaimStrategy strategy = strategy(Json.readObject(Bodies.text(event)));
        JsonLog.with("group", group);
        return RestJsonProtocol.respond(200, answer(services.groups().setClaimStrategy(group, strategy)));
    }

    private static ClaimStrategy strategy(ObjectNode body) {
        for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!name.equals(MEMBER)) {
                throw GamefleetException.invalidRequest(name + ": is not a member of PutClaimStrategy's input");
            }
        }
        JsonNode value = body.get(MEMBER);
        if (value == null || value.isNull()) {
            throw GamefleetException.invalidRequest(MEMBER + ": is required");
        }
        if (!value.isTextual() || Arrays.stream(ClaimStrategy.values()).noneMatch(s -> s.name().equals(value.asText()))) {
            throw GamefleetException.invalidRequest(MEMBER + ": must be one of " + NAMES);
        }
        return ClaimStrategy.valueOf(value.asText());
    }

    /** PutClaimStrategy's and DescribeClaimStrategy's answer. */
    static JsonNode answer(GameServerGroup group) {
        return Json.NODES.objectNode().put("GameServerGroupName", group.name())
                .put(MEMBER, group.claimStrategy().name());
    }
}
