package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.Caller;
import io.gamefleet.wiring.Services;
import java.util.Map;
import java.util.Optional;

/** DescribeStandbyPolicy ({@link Routes#DESCRIBE_STANDBY_POLICY}): a group's standby buffer and its last evaluation. */
public final class DescribeStandbyPolicyHandler extends ExtensionHandler {

    public DescribeStandbyPolicyHandler() {
        this(Services.shared());
    }

    public DescribeStandbyPolicyHandler(Services services) {
        super(Routes.DESCRIBE_STANDBY_POLICY, services);
    }

    @Override
    protected APIGatewayV2HTTPResponse serve(APIGatewayV2HTTPEvent event, Map<String, String> path, Caller caller,
            Optional<Role> role) {
        String group = groupRead(event, path, role);
        return RestJsonProtocol.respond(200, Outputs.standbyResponse(services, services.standby().describe(group)));
    }
}
