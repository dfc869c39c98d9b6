package io.gamefleet.api;

import static io.gamefleet.api.RestEvents.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Routes;
import io.gamefleet.domain.ErrorKind;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.json.Json;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The REST routes' input (body, path and query merged, query values typed by the model) and output. */
class RestJsonProtocolTest {
    private final RestJsonProtocol rest = new RestJsonProtocol(ModelValidator.load());

    private ObjectNode input(Operation operation, Map<String, String> path, Map<String, String> query, String body) {
        return rest.input(event("GET", "/x", path, query, body), Routes.of(operation));
    }

    @Test
    void pathAndQueryMembersJoinTheBodyTypedAsTheModelSays() {
        ObjectNode in = input(Operation.DESCRIBE_GAME_SERVER_INSTANCES, Map.of("GameServerGroupName", "arena"),
                Map.of("Limit", "5", "InstanceIds", "i-1,i-2", "NextToken", "42"), null);
        assertThat(in.get("GameServerGroupName").textValue()).isEqualTo("arena");
        assertThat(in.get("Limit").isInt()).isTrue();
        assertThat(in.get("Limit").intValue()).isEqualTo(5);
        assertThat(in.get("InstanceIds")).hasToString("[\"i-1\",\"i-2\"]");
        assertThat(in.get("NextToken").isTextual()).isTrue();
        assertThat(in.get("NextToken").textValue()).isEqualTo("42");
        assertThat(in.size()).isEqualTo(4);
    }

    @Test
    void aListKeepsItsEmptyItems() {
        ObjectNode in = input(Operation.DESCRIBE_GAME_SERVER_INSTANCES, Map.of("GameServerGroupName", "arena"),
                Map.of("InstanceIds", "i-1,,"), null);
        assertThat(in.get("InstanceIds")).hasToString("[\"i-1\",\"\",\"\"]");
    }

    @Test
    void aQueryIntegerThatIsNoIntegerIsRefused() {
        assertThatThrownBy(() -> input(Operation.LIST_GAME_SERVER_GROUPS, null, Map.of("Limit", "five"), null))
                .isInstanceOf(GamefleetException.class).hasMessage("Limit: must be an integer, got \"five\"");
    }

    @Test
    void aMemberInTheBodyAndThePathMustAgree() {
        ObjectNode same = input(Operation.DESCRIBE_GAME_SERVER_GROUP, Map.of("GameServerGroupName", "arena"), null,
                "{\"GameServerGroupName\": \"arena\"}");
        assertThat(same).hasToString("{\"GameServerGroupName\":\"arena\"}");
        assertThatThrownBy(() -> input(Operation.DESCRIBE_GAME_SERVER_GROUP, Map.of("GameServerGroupName", "arena"), null,
                "{\"GameServerGroupName\": \"other\"}")).isInstanceOf(GamefleetException.class)
                .hasMessage("GameServerGroupName: the body says \"other\" but the path says \"arena\"");
        assertThatThrownBy(() -> input(Operation.LIST_GAME_SERVER_GROUPS, null, Map.of("Limit", "5"), "{\"Limit\": 6}"))
                .hasMessage("Limit: the body says 6 but the query string says 5");
    }

    @Test
    void aQueryParameterOfARouteThatTakesNoneIsRefusedSayingSo() {
        assertThatThrownBy(() -> input(Operation.DESCRIBE_GAME_SERVER_GROUP, Map.of("GameServerGroupName", "arena"),
                Map.of("Limit", "5"), null)).isInstanceOf(GamefleetException.class)
                .hasMessage("Limit: is not a query parameter of DescribeGameServerGroup, which takes none");
        assertThatThrownBy(() -> input(Operation.LIST_GAME_SERVER_GROUPS, null, Map.of("SortOrder", "ASCENDING"), null))
                .hasMessage("SortOrder: is not a query parameter of ListGameServerGroups; it takes [Limit, NextToken]");
    }

    @Test
    void aPathEndingInASlashIsRefused() {
        assertThatThrownBy(() -> rest.input(event("GET", "/game-server-groups/arena/game-servers/",
                Map.of("GameServerGroupName", "arena"), null, null), Routes.of(Operation.LIST_GAME_SERVERS)))
                .isInstanceOf(GamefleetException.class)
                .hasMessage("the path /game-server-groups/arena/game-servers/ ends in '/'; no route of ListGameServers does");
        assertThat(rest.input(event("GET", "/game-server-groups/arena/game-servers",
                Map.of("GameServerGroupName", "arena"), null, null), Routes.of(Operation.LIST_GAME_SERVERS)))
                .hasToString("{\"GameServerGroupName\":\"arena\"}");
    }

    @Test
    void noPathAndNoQueryLeaveTheBody() {
        assertThat(input(Operation.LIST_GAME_SERVER_GROUPS, null, null, "{\"Limit\": 3}")).hasToString("{\"Limit\":3}");
    }

    @Test
    void outputIs200Json() {
        APIGatewayV2HTTPResponse response = rest.output(Operation.LIST_GAME_SERVER_GROUPS,
                Json.NODES.objectNode().put("a", 1));
        assertThat(response.getStatusCode()).isEqualTo(200);
        assertThat(response.getHeaders()).isEqualTo(Map.of("Content-Type", "application/json"));
        assertThat(response.getBody()).isEqualTo("{\"a\":1}");
    }

    @Test
    void eachErrorKindHasItsStatus() {
        assertThat(RestJsonProtocol.httpStatus(ErrorKind.INVALID_REQUEST)).isEqualTo(400);
        assertThat(RestJsonProtocol.httpStatus(ErrorKind.UNAUTHORIZED)).isEqualTo(403);
        assertThat(RestJsonProtocol.httpStatus(ErrorKind.NOT_FOUND)).isEqualTo(404);
        assertThat(RestJsonProtocol.httpStatus(ErrorKind.CONFLICT)).isEqualTo(409);
        assertThat(RestJsonProtocol.httpStatus(ErrorKind.OUT_OF_CAPACITY)).isEqualTo(409);
        assertThat(RestJsonProtocol.httpStatus(ErrorKind.INTERNAL)).isEqualTo(500);
        APIGatewayV2HTTPResponse error = rest.error(GamefleetException.conflict("taken"));
        assertThat(error.getStatusCode()).isEqualTo(409);
        assertThat(error.getBody()).isEqualTo("{\"__type\":\"ConflictException\",\"Message\":\"taken\"}");
        assertThat(error.getHeaders()).isEqualTo(Map.of("Content-Type", "application/json"));
    }
}
