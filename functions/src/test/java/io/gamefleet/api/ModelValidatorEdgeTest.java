package io.gamefleet.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.json.Json;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The validator at the edges of each constraint: a value exactly at a bound, one past it. */
class ModelValidatorEdgeTest {
    /** Built here, not once per class: building it is what some of these check. */
    private final ModelValidator model = ModelValidator.load();

    private void accepts(String operation, String json) {
        assertThatCode(() -> model.validateInput(operation, Json.readObject(json))).doesNotThrowAnyException();
    }

    private String rejection(String operation, String json) {
        try {
            model.validateInput(operation, Json.readObject(json));
        } catch (GamefleetException e) {
            return e.getMessage();
        }
        throw new AssertionError("accepted: " + json);
    }

    private static String create(String extra) {
        return """
                {"GameServerGroupName": "arena", "RoleArn": "arn:aws:iam::123456789012:role/fleetiq",
                 "MinSize": 0, "MaxSize": 1, "LaunchTemplate": {"LaunchTemplateName": "arena-lt"},
                 "InstanceDefinitions": [{"InstanceType": "c5.large"}, {"InstanceType": "m5.large"}]%s}""".formatted(extra);
    }

    private static String targetValue(String value) {
        return create(", \"AutoScalingPolicy\": {\"TargetTrackingConfiguration\": {\"TargetValue\": " + value + "}}");
    }

    @Test
    void aDoubleExactlyAtItsMinimumIsAccepted() {
        accepts("CreateGameServerGroup", targetValue("0"));
        accepts("CreateGameServerGroup", targetValue("0.0"));
        accepts("CreateGameServerGroup", targetValue("-0.0"));
        assertThat(rejection("CreateGameServerGroup", targetValue("-0.001")))
                .isEqualTo("AutoScalingPolicy.TargetTrackingConfiguration.TargetValue: must be at least 0");
        assertThat(rejection("CreateGameServerGroup", targetValue("\"5\"")))
                .isEqualTo("AutoScalingPolicy.TargetTrackingConfiguration.TargetValue: must be a number");
    }

    @Test
    void anIntegerExactlyAtItsMinimumIsAccepted() {
        accepts("CreateGameServerGroup", create(""));
        assertThat(rejection("CreateGameServerGroup", create("").replace("\"MinSize\": 0", "\"MinSize\": -1")))
                .isEqualTo("MinSize: must be at least 0");
        accepts("ListGameServerGroups", "{\"Limit\": 1}");
        assertThat(rejection("ListGameServerGroups", "{\"Limit\": 0}")).isEqualTo("Limit: must be at least 1");
        accepts("ListGameServerGroups", "{\"Limit\": 2147483647}");
        assertThat(rejection("ListGameServerGroups", "{\"Limit\": 2147483648}"))
                .isEqualTo("Limit: must be between -2147483648 and 2147483647");
    }

    @Test
    void aListExactlyAtItsBoundsIsAccepted() {
        String two = "{\"InstanceType\": \"c5.large\"}, {\"InstanceType\": \"m5.large\"}";
        String twenty = (two + ", ").repeat(10).replaceAll(", $", "");
        accepts("CreateGameServerGroup", create("").replace(two, twenty));
        assertThat(rejection("CreateGameServerGroup", create("").replace(two, twenty + ", " + two)))
                .isEqualTo("InstanceDefinitions: must have 2 to 20 items, got 22");
        assertThat(rejection("CreateGameServerGroup", create("").replace(two, "{\"InstanceType\": \"c5.large\"}")))
                .isEqualTo("InstanceDefinitions: must have 2 to 20 items, got 1");
        assertThat(rejection("SuspendGameServerGroup", "{\"GameServerGroupName\": \"arena\", \"SuspendActions\": []}"))
                .isEqualTo("SuspendActions: must have exactly 1 item, got 0");
    }

    @Test
    void aBoundOfZeroIsNotMentioned() {
        ArrayNode tags = Json.NODES.arrayNode();
        for (int i = 0; i < 201; i++) {
            tags.addObject().put("Key", "k" + i).put("Value", "v");
        }
        ObjectNode tooMany = Json.readObject(create(""));
        tooMany.set("Tags", tags);
        assertThatThrownBy(() -> model.validateInput("CreateGameServerGroup", tooMany))
                .hasMessage("Tags: must have at most 200 items, got 201");
        tags.remove(200);
        assertThatCode(() -> model.validateInput("CreateGameServerGroup", tooMany)).doesNotThrowAnyException();

        assertThat(rejection("CreateGameServerGroup",
                create(", \"Tags\": [{\"Key\": \"k\", \"Value\": \"" + "v".repeat(257) + "\"}]")))
                .isEqualTo("Tags[0].Value: must be at most 256 characters, got 257");
        accepts("CreateGameServerGroup", create(", \"Tags\": [{\"Key\": \"k\", \"Value\": \"" + "v".repeat(256) + "\"}]"));
        accepts("CreateGameServerGroup", create(", \"Tags\": [{\"Key\": \"k\", \"Value\": \"\"}]"));
    }

    @Test
    void aStringExactlyAtItsLengthBoundsIsAccepted() {
        accepts("DescribeGameServerGroup", "{\"GameServerGroupName\": \"" + "a".repeat(256) + "\"}");
        assertThat(rejection("DescribeGameServerGroup", "{\"GameServerGroupName\": \"" + "a".repeat(257) + "\"}"))
                .isEqualTo("GameServerGroupName: must be 1 to 256 characters, got 257");
        accepts("DescribeGameServerGroup", "{\"GameServerGroupName\": \"a\"}");
        assertThat(rejection("DescribeGameServerGroup", "{\"GameServerGroupName\": \"\"}"))
                .isEqualTo("GameServerGroupName: must be 1 to 256 characters, got 0");
    }

    @Test
    void aRejectedEnumValueIsEchoedUpTo64Characters() {
        String at = "x".repeat(64);
        assertThat(rejection("UpdateGameServer", update(at)))
                .isEqualTo("UtilizationStatus: \"" + at + "\" is not one of AVAILABLE, UTILIZED");
        assertThat(rejection("UpdateGameServer", update(at + "y")))
                .isEqualTo("UtilizationStatus: \"" + at + "...\" is not one of AVAILABLE, UTILIZED");
        assertThat(rejection("CreateGameServerGroup", create("").replace("c5.large", "c9.huge")))
                .startsWith("InstanceDefinitions[0].InstanceType: \"c9.huge\" is not a supported value; valid values include ")
                .endsWith(" (88 values in all)");
    }

    private static String update(String status) {
        return "{\"GameServerGroupName\": \"arena\", \"GameServerId\": \"gs-1\", \"UtilizationStatus\": \"" + status + "\"}";
    }

    @Test
    void aHighSurrogateAtTheEndIsUnpaired() {
        assertThat(rejection("UpdateGameServer",
                "{\"GameServerGroupName\": \"arena\", \"GameServerId\": \"gs-1\", \"GameServerData\": \"ab\\ud800\"}"))
                .isEqualTo("GameServerData: must be valid Unicode text (it has an unpaired surrogate)");
        accepts("UpdateGameServer",
                "{\"GameServerGroupName\": \"arena\", \"GameServerId\": \"gs-1\", \"GameServerData\": \"ab\\ud83d\\ude00\"}");
    }

    @Test
    void anUnknownOperationIsARoutingBug() {
        assertThatThrownBy(() -> model.validateInput("CreateFleet", Json.NODES.objectNode()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("unknown operation CreateFleet");
        assertThatThrownBy(() -> model.validateInput("ListGameServerGroups", null)).isInstanceOf(GamefleetException.class)
                .hasMessage("the request body must be a JSON object");
    }

    /** Each {@code $} anchor, and only those, becomes {@code \z}: not an escaped one, not one in a class. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiterString = " -> ", quoteCharacter = '\'', value = {
            "a$ -> a\\z",
            "'' -> ''",
            "^a$|^b$ -> ^a\\z|^b\\z",
            "^(a$|b)$ -> ^(a\\z|b)\\z",
            "^\\$$ -> ^\\$\\z",
            "^\\\\$ -> ^\\\\\\z",
            "^[$]$ -> ^[$]\\z",
            "^[a$b]x$ -> ^[a$b]x\\z",
            "^[\\]$]$ -> ^[\\]$]\\z",
            "^[a]$[$]$ -> ^[a]\\z[$]\\z",
            "a\\ -> a\\",
            "\\$ -> \\$"})
    void theEndAnchorRewrite(String regex, String rewritten) {
        assertThat(ModelValidator.anchoredAtEndOfInput(regex)).isEqualTo(rewritten);
    }

    @Test
    void theRewrittenPatternsMatchWhatTheModelsDialectMatches() {
        Pattern anchored = Pattern.compile(ModelValidator.anchoredAtEndOfInput("^[a-z]+$"));
        assertThat(anchored.matcher("id").find()).isTrue();
        assertThat(anchored.matcher("id\n").find()).isFalse();
        assertThat(Pattern.compile("^[a-z]+$").matcher("id\n").find()).isTrue(); // what the rewrite is for

        Pattern dollar = Pattern.compile(ModelValidator.anchoredAtEndOfInput("^\\$[0-9]+$"));
        assertThat(dollar.matcher("$5").find()).isTrue();
        assertThat(dollar.matcher("$5\n").find()).isFalse();
        Pattern inClass = Pattern.compile(ModelValidator.anchoredAtEndOfInput("^[$a]+$"));
        assertThat(inClass.matcher("a$a").find()).isTrue();
        Pattern either = Pattern.compile(ModelValidator.anchoredAtEndOfInput("^a$|^b$"));
        assertThat(either.matcher("b").find()).isTrue();
        assertThat(either.matcher("b\n").find()).isFalse();
        assertThat(either.matcher("a\n").find()).isFalse();
    }
}
