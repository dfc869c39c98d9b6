package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GroupSummaries;
import io.gamefleet.domain.MetricsHistory.CountsAt;
import io.gamefleet.json.Json;
import io.gamefleet.wiring.Services;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;

/**
 * DescribeGameServerGroupMetrics ({@link Routes#DESCRIBE_GROUP_METRICS}): the group's FleetIQ
 * counts over the last hour as the balancer's runs gave the metrics, oldest first,
 * {@code {"Period": 60, "GameServers": [{"Time", "Available", "Utilized", "PercentUtilized"}]}}.
 */
public final class DescribeGameServerGroupMetricsHandler extends ExtensionHandler {

    public DescribeGameServerGroupMetricsHandler() {
        this(Services.shared());
    }

    public DescribeGameServerGroupMetricsHandler(Services services) {
        super(Routes.DESCRIBE_GROUP_METRICS, services);
    }

    @Override
    protected APIGatewayV2HTTPResponse serve(APIGatewayV2HTTPEvent event, Map<String, String> path, Caller caller,
            Optional<Role> role) {
        String group = groupRead(event, path, role);
        ObjectNode out = Json.NODES.objectNode();
        out.put("Period", GroupSummaries.HISTORY_PERIOD.toSeconds());
        ArrayNode points = out.putArray("GameServers");
        for (CountsAt p : services.summaries().history(group)) {
            points.addObject().put("Time", BigDecimal.valueOf(p.time().toEpochMilli(), 3))
                    .put("Available", p.available()).put("Utilized", p.utilized())
                    .put("PercentUtilized", p.percentUtilized());
        }
        return RestJsonProtocol.respond(200, out);
    }
}
