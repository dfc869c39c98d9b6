package io.gamefleet.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Operation;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.SortOrder;
import io.gamefleet.json.Json;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A validated input: the API's own limits on top of the model's, and its typed readers. */
class ApiRequestTest {
    private static final ModelValidator MODEL = ModelValidator.load();

    private static ObjectNode input(String json) {
        return Json.readObject(json);
    }

    private static ApiRequest list(String json) {
        return ApiRequest.validate(Operation.LIST_GAME_SERVERS, input(json), Caller.UNBOUND, MODEL);
    }

    @Test
    void limitIsOneToAHundredAndFiftyWhenAbsent() {
        assertThat(list("{\"GameServerGroupName\": \"arena\", \"Limit\": 100}").limit()).isEqualTo(100);
        assertThat(list("{\"GameServerGroupName\": \"arena\", \"Limit\": 1}").limit()).isEqualTo(1);
        assertThat(list("{\"GameServerGroupName\": \"arena\"}").limit()).isEqualTo(50);
        assertThatThrownBy(() -> list("{\"GameServerGroupName\": \"arena\", \"Limit\": 101}"))
                .isInstanceOf(GamefleetException.class).hasMessage("Limit: must be at most 100, got 101");
        assertThatThrownBy(() -> list("{\"GameServerGroupName\": \"arena\", \"Limit\": 0}"))
                .isInstanceOf(GamefleetException.class).hasMessage("Limit: must be at least 1");
    }

    @Test
    void theModelIsCheckedFirst() {
        assertThatThrownBy(() -> list("{\"Limit\": 5}")).hasMessage("GameServerGroupName: is required");
    }

    @Test
    void readersGiveTheMembersOrEmpty() {
        Caller caller = Caller.onInstance("i-0123456789abcdef0");
        ObjectNode in = input("{\"GameServerGroupName\": \"arena\", \"SortOrder\": \"DESCENDING\", \"NextToken\": \"t\"}");
        ApiRequest request = ApiRequest.validate(Operation.LIST_GAME_SERVERS, in, caller, MODEL);
        assertThat(request.input()).isSameAs(in);
        assertThat(request.caller()).isSameAs(caller);
        assertThat(request.string("GameServerGroupName")).isEqualTo("arena");
        assertThat(request.optionalString("NextToken")).contains("t");
        assertThat(request.optionalString("Limit")).isEmpty();
        assertThat(request.optionalEnum("SortOrder", SortOrder.class)).contains(SortOrder.DESCENDING);
        assertThat(list("{\"GameServerGroupName\": \"arena\"}").optionalEnum("SortOrder", SortOrder.class)).isEmpty();
    }

    @Test
    void listsAreReadItemByItem() {
        ApiRequest request = ApiRequest.validate(Operation.DESCRIBE_GAME_SERVER_INSTANCES,
                input("{\"GameServerGroupName\": \"arena\", \"InstanceIds\": [\"i-0123456789abcdef0\", \"i-0123456789abcdef1\"]}"),
                Caller.UNBOUND, MODEL);
        assertThat(request.optionalStrings("InstanceIds")).contains(List.of("i-0123456789abcdef0", "i-0123456789abcdef1"));
        assertThat(request.optionalList("InstanceIds", JsonNode::textValue).orElseThrow()).hasSize(2);
        assertThat(request.optionalStrings("NextToken")).isEqualTo(Optional.empty());
        assertThat(request.optionalList("Other", n -> n)).isEmpty();
    }
}
