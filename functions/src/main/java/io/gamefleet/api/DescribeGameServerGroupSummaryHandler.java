package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GroupSummaries.Described;
import io.gamefleet.domain.GroupSummary;
import io.gamefleet.json.Json;
import io.gamefleet.wiring.Services;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;

/**
 * DescribeGameServerGroupSummary ({@link Routes#DESCRIBE_GROUP_SUMMARY}): the group as
 * DescribeGameServerGroup answers it, and the counts of the balancer's last run over it with that
 * run's time (no {@code Summary} before a run counted it). Two GetItems, whatever the group's size.
 */
public final class DescribeGameServerGroupSummaryHandler extends ExtensionHandler {

    public DescribeGameServerGroupSummaryHandler() {
        this(Services.shared());
    }

    public DescribeGameServerGroupSummaryHandler(Services services) {
        super(Routes.DESCRIBE_GROUP_SUMMARY, services);
    }

    @Override
    protected APIGatewayV2HTTPResponse serve(APIGatewayV2HTTPEvent event, Map<String, String> path, Caller caller,
            Optional<Role> role) {
        String group = groupRead(event, path, role);
        Described described = services.summaries().describe(group);
        ObjectNode out = Json.NODES.objectNode();
        out.set("GameServerGroup", Outputs.group(described.group()));
        described.summary().ifPresent(s -> out.set("Summary", summary(s)));
        return RestJsonProtocol.respond(200, out);
    }

    private static ObjectNode summary(GroupSummary s) {
        ObjectNode n = Json.NODES.objectNode();
        n.put("AsOf", BigDecimal.valueOf(s.asOf().toEpochMilli(), 3));
        n.put("GameServers", s.gameServers());
        // FleetIQ's counts, as the metrics publish them (none on SPOT_TERMINATING instances).
        n.put("Available", s.counts().available());
        n.put("Utilized", s.counts().utilized());
        n.put("DrainingAvailable", s.counts().drainingAvailable());
        n.put("DrainingUtilized", s.counts().drainingUtilized());
        n.put("PercentUtilized", s.counts().percentUtilized());
        n.put("Claimable", s.claimable());
        n.put("Claimed", s.claimed());
        n.put("OnSpotTerminating", s.onSpotTerminating());
        ObjectNode processes = n.putObject("Processes");
        processes.put("Initializing", s.processes().initializing());
        processes.put("StandingBy", s.processes().standingBy());
        processes.put("Active", s.processes().active());
        processes.put("Terminating", s.processes().terminating());
        processes.put("ConnectedPlayers", s.processes().connectedPlayers());
        return n;
    }
}
