package io.gamefleet.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GroupSummary;
import io.gamefleet.domain.Metrics.GameServerCounts;
import io.gamefleet.domain.Metrics.ProcessCounts;
import io.gamefleet.domain.MetricsHistory;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.wiring.TestServices;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A group's summary route: the group and its last balancer run's counts, to an ADMIN or a matchmaker. */
class GroupSummaryHandlerTest {
    private static final String ADMIN = RestEvents.session(Role.ADMIN, "alice");
    private static final String MATCHMAKER = RestEvents.session(Role.MATCHMAKER, "mm");

    private final TestServices test = new TestServices();
    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> describe =
            new FunctionRegistry(test.services).extension(Routes.DESCRIBE_GROUP_SUMMARY);

    @BeforeEach
    void aGroup() {
        test.groups.create(GameServerGroup.builder().name("arena").arn(test.services.settings().groupArn("arena"))
                .status(GameServerGroupStatus.ACTIVE).minSize(1).maxSize(4)
                .creationTime(test.clock.instant()).lastUpdatedTime(test.clock.instant()).build());
    }

    private final RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> metrics =
            new FunctionRegistry(test.services).extension(Routes.DESCRIBE_GROUP_METRICS);

    private APIGatewayV2HTTPResponse metrics(String group, String caller) {
        return metrics.handleRequest(RestEvents.event("GET", "/game-server-groups/" + group + "/metrics",
                Map.of("GameServerGroupName", group), null, null, caller), null);
    }

    @Test
    void theMetricsRouteAnswersTheHistorysPointsOldestFirstByTheMinute() {
        java.time.Instant t = test.clock.instant();
        test.history.put("arena", java.util.List.of(new MetricsHistory.CountsAt(t.minusSeconds(120), 30, 10, 25),
                new MetricsHistory.CountsAt(t.minusSeconds(60), 28, 12, 30)));
        JsonNode answer = RestEvents.ok(metrics("arena", MATCHMAKER));
        assertThat(answer.get("Period").asLong()).isEqualTo(60);
        assertThat(answer.get("GameServers")).hasSize(2);
        JsonNode first = answer.get("GameServers").get(0);
        assertThat(first.get("Time").decimalValue()).isEqualByComparingTo(
                java.math.BigDecimal.valueOf(t.minusSeconds(120).toEpochMilli(), 3));
        assertThat(first.get("Available").asDouble()).isEqualTo(30);
        assertThat(first.get("Utilized").asDouble()).isEqualTo(10);
        assertThat(first.get("PercentUtilized").asDouble()).isEqualTo(25);
        assertThat(metrics("nowhere", ADMIN).getStatusCode()).isEqualTo(404);
        assertThat(metrics("arena", RestEvents.session(Role.GAME_SERVER, "i-0aaaaaaaaaaaaaaaa")).getStatusCode()).isEqualTo(403);
    }

    private APIGatewayV2HTTPResponse get(String group, String caller) {
        return describe.handleRequest(RestEvents.event("GET", "/game-server-groups/" + group + "/summary",
                Map.of("GameServerGroupName", group), null, null, caller), null);
    }

    @Test
    void beforeAnyRunTheGroupAloneAndAfterItTheRunsCounts() {
        JsonNode before = RestEvents.ok(get("arena", MATCHMAKER));
        assertThat(before.get("GameServerGroup").get("Status").asText()).isEqualTo("ACTIVE");
        assertThat(before.has("Summary")).isFalse();

        test.clock.advance(java.time.Duration.ofSeconds(90));
        test.summaries.save("arena", new GroupSummary(test.clock.instant(), 5000, new GameServerCounts(3900, 1000, 40, 2),
                3700, 150, 100, new ProcessCounts(1, 3800, 1000, 2, 4321)));
        JsonNode summary = RestEvents.ok(get("arena", ADMIN)).get("Summary");
        assertThat(summary.get("AsOf").decimalValue()).isEqualByComparingTo(
                java.math.BigDecimal.valueOf(test.clock.instant().toEpochMilli(), 3));
        assertThat(summary.get("GameServers").asLong()).isEqualTo(5000);
        assertThat(summary.get("Available").asLong()).isEqualTo(3900);
        assertThat(summary.get("Claimable").asLong()).isEqualTo(3700);
        assertThat(summary.get("Claimed").asLong()).isEqualTo(150);
        assertThat(summary.get("OnSpotTerminating").asLong()).isEqualTo(100);
        assertThat(summary.get("PercentUtilized").asDouble()).isEqualTo(100.0 * 1000 / 4900);
        assertThat(summary.get("Processes").get("ConnectedPlayers").asLong()).isEqualTo(4321);
    }

    @Test
    void anUnknownGroupIsNotFoundAndAGameServerMayNotReadIt() {
        assertThat(get("nowhere", ADMIN).getStatusCode()).isEqualTo(404);
        assertThat(get("bad name!", ADMIN).getStatusCode()).isEqualTo(400);
        assertThat(get("arena", RestEvents.session(Role.GAME_SERVER, "i-0aaaaaaaaaaaaaaaa")).getStatusCode()).isEqualTo(403);
    }
}
