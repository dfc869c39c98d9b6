package io.gamefleet.push;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2WebSocketEvent;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.api.IamCaller;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.wiring.Services;
import java.util.Map;
import java.util.OptionalInt;

/**
 * {@code $connect}: the agent of {@code instanceId} in {@code gameServerGroupName} (query
 * parameters, held to FleetIQ's shapes for an instance id and a group's name or ARN before anything
 * is read), as the IAM identity API Gateway verified; the caller is bound to its instance as the
 * REST API binds GAME_SERVER callers. An optional {@code qosPort}, the port its QoS beacon bound
 * (an integer 1 to 65535, else 400 before anything is read), is recorded with the connection.
 * Anything but 200 refuses the connection.
 */
public final class ConnectHandler extends WebSocketHandler {
    private static final int MAX_PORT = 65535;

    public ConnectHandler() {
        this(Services.shared());
    }

    public ConnectHandler(Services services) {
        super(PushChannel.CONNECT, services);
    }

    @Override
    protected JsonNode handle(APIGatewayV2WebSocketEvent event) {
        Map<String, String> query = event.getQueryStringParameters() == null ? Map.of() : event.getQueryStringParameters();
        String instanceId = required(query, PushChannel.INSTANCE_ID_PARAMETER, "GameServerInstanceId");
        String group = services.settings().groupName(required(query, PushChannel.GROUP_NAME_PARAMETER,
                "GameServerGroupNameOrArn"));
        OptionalInt qosPort = qosPort(query.get(PushChannel.QOS_PORT_PARAMETER));
        IamCaller caller = IamCaller.of(event);
        services.pushConnections().connect(caller.domainCaller(caller.roleIn(services.callerRoles())), group,
                instanceId, connectionId(event), qosPort);
        return null;
    }

    /** The beacon's port, if the agent gave one: a UDP port's decimal digits, no sign or padding. */
    private static OptionalInt qosPort(String value) {
        if (value == null) {
            return OptionalInt.empty();
        }
        if (value.matches("[1-9][0-9]{0,4}") && Integer.parseInt(value) <= MAX_PORT) {
            return OptionalInt.of(Integer.parseInt(value));
        }
        throw GamefleetException.invalidRequest(PushChannel.QOS_PORT_PARAMETER + ": must be a UDP port, 1 to " + MAX_PORT
                + ", got \"" + (value.length() > 10 ? value.substring(0, 10) + "..." : value) + "\"");
    }

    /** The query parameter, held to the FleetIQ shape of what it names (an EC2 instance id, a group's name or ARN). */
    private static String required(Map<String, String> query, String name, String shape) {
        String value = query.get(name);
        if (value == null || value.isBlank()) {
            throw GamefleetException.invalidRequest("the connect request needs the query parameter " + name);
        }
        return valid(value, shape, name);
    }
}
