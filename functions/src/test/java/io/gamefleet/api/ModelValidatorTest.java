package io.gamefleet.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.domain.ErrorKind;
import io.gamefleet.domain.GamefleetException;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class ModelValidatorTest {
    private static final ModelValidator VALIDATOR = ModelValidator.load();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static final String ID_CHARS =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.";
    private static final String ARN =
            "arn:aws:gamelift:us-west-2:123456789012:gameservergroup/my-group";
    private static final String MINIMAL_CREATE = """
            {"GameServerGroupName": "my-group",
             "RoleArn": "arn:aws:iam::123456789012:role/fleetiq",
             "MinSize": 0, "MaxSize": 1,
             "LaunchTemplate": {"LaunchTemplateName": "my-template"},
             "InstanceDefinitions": [{"InstanceType": "c5.large"}, {"InstanceType": "c5a.large"}]}
            """;

    // ---- helpers -------------------------------------------------------------------------

    private static ObjectNode json(String text) {
        try {
            return (ObjectNode) MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    /** MINIMAL_CREATE with one top-level member replaced (or added) by a JSON fragment. */
    private static ObjectNode createWith(String member, String valueJson) {
        ObjectNode input = json(MINIMAL_CREATE);
        try {
            input.set(member, MAPPER.readTree(valueJson));
        } catch (Exception e) {
            throw new IllegalArgumentException(valueJson, e);
        }
        return input;
    }

    private static void accepts(String operation, ObjectNode input) {
        assertThatCode(() -> VALIDATOR.validateInput(operation, input)).doesNotThrowAnyException();
    }

    private static String rejection(String operation, ObjectNode input) {
        GamefleetException e = catchThrowableOfType(GamefleetException.class,
                () -> VALIDATOR.validateInput(operation, input));
        assertThat(e).as("expected %s to reject %s", operation, input).isNotNull();
        assertThat(e.errorType()).isEqualTo("InvalidRequestException");
        assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_REQUEST);
        return e.getMessage();
    }

    // ---- valid inputs ----------------------------------------------------------------------

    @Test
    void acceptsFullCreateGameServerGroup() {
        accepts("CreateGameServerGroup", json("""
                {"GameServerGroupName": "my-group.1",
                 "RoleArn": "arn:aws:iam::123456789012:role/gamelift-fleetiq",
                 "MinSize": 0, "MaxSize": 10,
                 "LaunchTemplate": {"LaunchTemplateId": "lt-0123456789abcdef0",
                                    "LaunchTemplateName": "my-template", "Version": "$Latest"},
                 "InstanceDefinitions": [{"InstanceType": "c5.large", "WeightedCapacity": "1"},
                                         {"InstanceType": "m6g.16xlarge", "WeightedCapacity": "999"}],
                 "AutoScalingPolicy": {"EstimatedInstanceWarmup": 60,
                                       "TargetTrackingConfiguration": {"TargetValue": 62.5}},
                 "BalancingStrategy": "SPOT_PREFERRED",
                 "GameServerProtectionPolicy": "FULL_PROTECTION",
                 "VpcSubnets": ["subnet-0123456789abcdef0", "subnet-01234567"],
                 "Tags": [{"Key": "team", "Value": "blue"}, {"Key": "empty", "Value": ""}]}
                """));
    }

    @Test
    void acceptsMinimalCreateGameServerGroup() {
        accepts("CreateGameServerGroup", json(MINIMAL_CREATE));
    }

    @Test
    void acceptsGameServerOperations() {
        accepts("RegisterGameServer", json("""
                {"GameServerGroupName": "my-group", "GameServerId": "gs-1",
                 "InstanceId": "i-0123456789abcdef0", "ConnectionInfo": "10.0.0.1:7777",
                 "GameServerData": "{\\"map\\": \\"desert\\"}"}
                """));
        accepts("ClaimGameServer", json("""
                {"GameServerGroupName": "%s", "GameServerData": "x",
                 "FilterOption": {"InstanceStatuses": ["ACTIVE", "DRAINING"]}}
                """.formatted(ARN)));
        accepts("UpdateGameServer", json("""
                {"GameServerGroupName": "my-group", "GameServerId": "gs-1",
                 "UtilizationStatus": "UTILIZED", "HealthCheck": "HEALTHY", "GameServerData": "d"}
                """));
        accepts("ListGameServers", json("""
                {"GameServerGroupName": "my-group", "SortOrder": "DESCENDING", "Limit": 100,
                 "NextToken": "opaque"}
                """));
        accepts("DescribeGameServerInstances", json("""
                {"GameServerGroupName": "my-group", "Limit": 1,
                 "InstanceIds": ["i-0123456789abcdef0", "i-ABCDEFGHIJKLMNOPQ"]}
                """));
        accepts("SuspendGameServerGroup", json("""
                {"GameServerGroupName": "my-group", "SuspendActions": ["REPLACE_INSTANCE_TYPES"]}
                """));
        accepts("ListGameServerGroups", json("{}"));
    }

    @Test
    void surrogateRangePatternsAcceptEmojiAndRejectControlCharacters() {
        // LaunchTemplateVersion's pattern is written for a UTF-16 engine (\uD800\uDC00-\uDBFF\uDFFF).
        accepts("CreateGameServerGroup", createWith("LaunchTemplate",
                "{\"LaunchTemplateName\": \"t-1\", \"Version\": \"v1 \uD83D\uDE00 caf\u00e9\"}"));
        assertThat(rejection("CreateGameServerGroup", createWith("LaunchTemplate",
                "{\"LaunchTemplateName\": \"t-1\", \"Version\": \"v\\u0001\"}")))
                .startsWith("LaunchTemplate.Version: must match ^[");
    }

    @Test
    void lengthsCountCodePoints() {
        // 128 emoji are 256 Java chars but 128 characters: a valid TagKey.
        String emoji = "\uD83D\uDE00".repeat(128);
        accepts("CreateGameServerGroup", createWith("Tags",
                "[{\"Key\": \"" + emoji + "\", \"Value\": \"v\"}]"));
        assertThat(rejection("CreateGameServerGroup", createWith("Tags",
                "[{\"Key\": \"" + emoji + "x\", \"Value\": \"v\"}]")))
                .isEqualTo("Tags[0].Key: must be 1 to 128 characters, got 129");
    }

    // ---- one rejection per rule --------------------------------------------------------------

    @Test
    void rejectsUnknownMembers() {
        assertThat(rejection("CreateGameServerGroup", createWith("Foo", "1")))
                .isEqualTo("Foo: is not a member of CreateGameServerGroup's input");
        assertThat(rejection("CreateGameServerGroup", createWith("InstanceDefinitions",
                "[{\"InstanceType\": \"c5.large\"}, {\"InstanceType\": \"c5.large\", \"Weight\": \"2\"}]")))
                .isEqualTo("InstanceDefinitions[1].Weight: is not a member of InstanceDefinition");
        assertThat(rejection("ClaimGameServer", json("""
                {"GameServerGroupName": "g-1", "FilterOption": {"Statuses": ["ACTIVE"]}}
                """))).isEqualTo("FilterOption.Statuses: is not a member of ClaimFilterOption");
    }

    @Test
    void rejectsMissingRequiredMembers() {
        ObjectNode input = json(MINIMAL_CREATE);
        input.remove("MaxSize");
        assertThat(rejection("CreateGameServerGroup", input)).isEqualTo("MaxSize: is required");
        assertThat(rejection("CreateGameServerGroup", createWith("AutoScalingPolicy",
                "{\"EstimatedInstanceWarmup\": 30}")))
                .isEqualTo("AutoScalingPolicy.TargetTrackingConfiguration: is required");
        assertThat(rejection("RegisterGameServer", json("""
                {"GameServerGroupName": "g-1", "GameServerId": "gs-1"}
                """))).isEqualTo("InstanceId: is required");
    }

    @Test
    void rejectsStringsOfTheWrongLength() {
        assertThat(rejection("DescribeGameServer", json("""
                {"GameServerGroupName": "g-1", "GameServerId": "ab"}
                """))).isEqualTo("GameServerId: must be 3 to 128 characters, got 2");
        assertThat(rejection("DescribeGameServer", json("""
                {"GameServerGroupName": "g-1", "GameServerId": "%s"}
                """.formatted("a".repeat(129)))))
                .isEqualTo("GameServerId: must be 3 to 128 characters, got 129");
        assertThat(rejection("ListGameServerGroups", json("{\"NextToken\": \"\"}")))
                .isEqualTo("NextToken: must be 1 to 1024 characters, got 0");
    }

    @Test
    void rejectsPatternMisses() {
        assertThat(rejection("DescribeGameServer", json("""
                {"GameServerGroupName": "g-1", "GameServerId": "gs_1"}
                """))).isEqualTo("GameServerId: must match ^[a-zA-Z0-9-\\.]+$");
        assertThat(rejection("RegisterGameServer", json("""
                {"GameServerGroupName": "g-1", "GameServerId": "gs-1",
                 "InstanceId": "i-0123456789abcdef0", "ConnectionInfo": "  \\t "}
                """))).isEqualTo("ConnectionInfo: must match ^.*\\S.*$");
        assertThat(rejection("CreateGameServerGroup", createWith("RoleArn", "\"arn:aws:iam::1:user/x\"")))
                .isEqualTo("RoleArn: must match ^arn:.*:role\\/[\\w+=,.@-]+");
    }

    @Test
    void iamRoleArnPatternHasNoEndAnchorAndIsAppliedWithFind() {
        // As in AWS: the pattern ends without $, so trailing text after the role name is allowed.
        accepts("CreateGameServerGroup",
                createWith("RoleArn", "\"arn:aws:iam::123456789012:role/path/to/role\""));
    }

    @Test
    void dollarIsTheEndOfTheInputAsInTheModelsRegexDialect() {
        // Java's $ also matches before a final line break; the model's (ECMA-262) $ does not.
        assertThat(rejection("DescribeGameServer", describe("gs-1\n")))
                .isEqualTo("GameServerId: must match ^[a-zA-Z0-9-\\.]+$");
        assertThat(rejection("UpdateGameServer", json("""
                {"GameServerGroupName": "g-1", "GameServerId": "gs-1", "GameServerData": "data\\n"}
                """))).isEqualTo("GameServerData: must match ^.*\\S.*$");
        assertThat(ModelValidator.anchoredAtEndOfInput("^[a$]\\$x$")).isEqualTo("^[a$]\\$x\\z");
    }

    @Test
    void multiLineGameServerDataIsRejectedLikeAws() {
        // ^.*\S.*$ without DOTALL cannot span a line break; pinned so a change is deliberate.
        assertThat(rejection("UpdateGameServer", json("""
                {"GameServerGroupName": "g-1", "GameServerId": "gs-1", "GameServerData": "a\\nb"}
                """))).isEqualTo("GameServerData: must match ^.*\\S.*$");
    }

    @Test
    void rejectsEnumMisses() {
        assertThat(rejection("CreateGameServerGroup", createWith("InstanceDefinitions",
                "[{\"InstanceType\": \"c5.large\"}, {\"InstanceType\": \"c9.huge\"}]")))
                .isEqualTo("InstanceDefinitions[1].InstanceType: \"c9.huge\" is not a supported value; "
                        + "valid values include c4.large, c4.xlarge, c4.2xlarge, c4.4xlarge, c4.8xlarge, "
                        + "c5.large, c5.xlarge, c5.2xlarge, c5.4xlarge, c5.9xlarge (88 values in all)");
        assertThat(rejection("ListGameServers", json("""
                {"GameServerGroupName": "g-1", "SortOrder": "ascending"}
                """))).isEqualTo("SortOrder: \"ascending\" is not one of ASCENDING, DESCENDING");
    }

    @Test
    void rejectsIntegersOutOfRangeOrOfTheWrongType() {
        assertThat(rejection("CreateGameServerGroup", createWith("MinSize", "-1")))
                .isEqualTo("MinSize: must be at least 0");
        assertThat(rejection("ListGameServerGroups", json("{\"Limit\": 0}")))
                .isEqualTo("Limit: must be at least 1");
        assertThat(rejection("ListGameServerGroups", json("{\"Limit\": 5.0}")))
                .isEqualTo("Limit: must be an integer");
        assertThat(rejection("ListGameServerGroups", json("{\"Limit\": \"5\"}")))
                .isEqualTo("Limit: must be an integer");
        assertThat(rejection("ListGameServerGroups", json("{\"Limit\": 3000000000}")))
                .isEqualTo("Limit: must be between -2147483648 and 2147483647");
    }

    @Test
    void rejectsDoublesBelowMinimumAndNonNumbers() {
        assertThat(rejection("CreateGameServerGroup", createWith("AutoScalingPolicy",
                "{\"TargetTrackingConfiguration\": {\"TargetValue\": -0.5}}")))
                .isEqualTo("AutoScalingPolicy.TargetTrackingConfiguration.TargetValue: must be at least 0");
        assertThat(rejection("CreateGameServerGroup", createWith("AutoScalingPolicy",
                "{\"TargetTrackingConfiguration\": {\"TargetValue\": \"50\"}}")))
                .isEqualTo("AutoScalingPolicy.TargetTrackingConfiguration.TargetValue: must be a number");
    }

    @Test
    void rejectsNullsAndWrongJsonTypes() {
        assertThat(rejection("CreateGameServerGroup", createWith("BalancingStrategy", "null")))
                .isEqualTo("BalancingStrategy: must not be null");
        assertThat(rejection("CreateGameServerGroup", createWith("MaxSize", "null")))
                .isEqualTo("MaxSize: must not be null");
        assertThat(rejection("CreateGameServerGroup", createWith("InstanceDefinitions",
                "{\"InstanceType\": \"c5.large\"}"))).isEqualTo("InstanceDefinitions: must be a list");
        assertThat(rejection("CreateGameServerGroup", createWith("LaunchTemplate", "\"lt-1\"")))
                .isEqualTo("LaunchTemplate: must be an object");
        assertThat(rejection("CreateGameServerGroup", createWith("GameServerGroupName", "42")))
                .isEqualTo("GameServerGroupName: must be a string");
        assertThat(rejection("CreateGameServerGroup", createWith("VpcSubnets", "[\"subnet-0123456789\", null]")))
                .isEqualTo("VpcSubnets[1]: must not be null");
    }

    @Test
    void rejectsListsOfTheWrongSize() {
        assertThat(rejection("CreateGameServerGroup", createWith("InstanceDefinitions",
                "[{\"InstanceType\": \"c5.large\"}]")))
                .isEqualTo("InstanceDefinitions: must have 2 to 20 items, got 1");
        String twentyOne = "[" + "{\"InstanceType\": \"c5.large\"},".repeat(20) + "{\"InstanceType\": \"c5.large\"}]";
        assertThat(rejection("CreateGameServerGroup", createWith("InstanceDefinitions", twentyOne)))
                .isEqualTo("InstanceDefinitions: must have 2 to 20 items, got 21");
        assertThat(rejection("SuspendGameServerGroup", json("""
                {"GameServerGroupName": "g-1", "SuspendActions": []}
                """))).isEqualTo("SuspendActions: must have exactly 1 item, got 0");
    }

    @Test
    void weightedCapacityIsOneTo999() {
        String ok = "[{\"InstanceType\": \"c5.large\"}, {\"InstanceType\": \"c5.large\", \"WeightedCapacity\": \"%s\"}]";
        accepts("CreateGameServerGroup", createWith("InstanceDefinitions", ok.formatted("999")));
        assertThat(rejection("CreateGameServerGroup", createWith("InstanceDefinitions", ok.formatted("0"))))
                .isEqualTo("InstanceDefinitions[1].WeightedCapacity: must match ^[\\u0031-\\u0039][\\u0030-\\u0039]{0,2}$");
        assertThat(rejection("CreateGameServerGroup", createWith("InstanceDefinitions", ok.formatted("1000"))))
                .isEqualTo("InstanceDefinitions[1].WeightedCapacity: must be 1 to 3 characters, got 4");
        assertThat(rejection("CreateGameServerGroup", createWith("InstanceDefinitions", ok.formatted("07"))))
                .startsWith("InstanceDefinitions[1].WeightedCapacity: must match");
    }

    @Test
    void groupArnIsAcceptedOnlyWhereTheShapeIsNameOrArn() {
        accepts("DescribeGameServerGroup", json("{\"GameServerGroupName\": \"" + ARN + "\"}"));
        assertThat(rejection("CreateGameServerGroup", createWith("GameServerGroupName", "\"" + ARN + "\"")))
                .isEqualTo("GameServerGroupName: must match ^[a-zA-Z0-9-\\.]+$");
    }

    @Test
    void instanceIdMustBeExactly19Characters() {
        String register = """
                {"GameServerGroupName": "g-1", "GameServerId": "gs-1", "InstanceId": "%s"}
                """;
        accepts("RegisterGameServer", json(register.formatted("i-0123456789abcdef0")));
        assertThat(rejection("RegisterGameServer", json(register.formatted("i-0123456789abcdef"))))
                .isEqualTo("InstanceId: must be exactly 19 characters, got 18");
        assertThat(rejection("RegisterGameServer", json(register.formatted("i-0123456789abcdef01"))))
                .isEqualTo("InstanceId: must be exactly 19 characters, got 20");
        assertThat(rejection("RegisterGameServer", json(register.formatted("x-0123456789abcdef0"))))
                .isEqualTo("InstanceId: must match ^i-[0-9a-zA-Z]{17}$");
        assertThat(rejection("DescribeGameServerInstances", json("""
                {"GameServerGroupName": "g-1", "InstanceIds": ["i-0123456789abcdef0", "i-1"]}
                """))).isEqualTo("InstanceIds[1]: must be exactly 19 characters, got 3");
    }

    @Test
    void vpcSubnetsFollowTheirPattern() {
        assertThat(rejection("CreateGameServerGroup", createWith("VpcSubnets", "[\"subnet-ABCDEF01234\"]")))
                .isEqualTo("VpcSubnets[0]: must match ^subnet-[0-9a-z]+$");
        assertThat(rejection("CreateGameServerGroup", createWith("VpcSubnets", "[\"subnet-0123\"]")))
                .isEqualTo("VpcSubnets[0]: must be 15 to 24 characters, got 11");
        assertThat(rejection("CreateGameServerGroup", createWith("VpcSubnets", "[]")))
                .isEqualTo("VpcSubnets: must have 1 to 20 items, got 0");
    }

    @Test
    void tagValueMayBeEmptyButTagKeyMayNot() {
        accepts("CreateGameServerGroup", createWith("Tags", "[{\"Key\": \"k\", \"Value\": \"\"}]"));
        assertThat(rejection("CreateGameServerGroup", createWith("Tags", "[{\"Key\": \"\", \"Value\": \"v\"}]")))
                .isEqualTo("Tags[0].Key: must be 1 to 128 characters, got 0");
        assertThat(rejection("CreateGameServerGroup", createWith("Tags", "[{\"Key\": \"k\"}]")))
                .isEqualTo("Tags[0].Value: is required");
    }

    // ---- member types for path/query coercion ------------------------------------------------

    @Test
    void memberTypesComeFromTheModel() {
        assertThat(VALIDATOR.memberType("ListGameServers", "Limit")).contains("integer");
        assertThat(VALIDATOR.memberType("DescribeGameServerInstances", "InstanceIds")).contains("list");
        assertThat(VALIDATOR.memberType("DescribeGameServer", "GameServerId")).contains("string");
        assertThat(VALIDATOR.memberType("ClaimGameServer", "FilterOption")).contains("structure");
        assertThat(VALIDATOR.memberType("ListGameServers", "Nope")).isEqualTo(Optional.empty());
        assertThat(VALIDATOR.memberType("NoSuchOperation", "Limit")).isEmpty();
    }

    // ---- properties ------------------------------------------------------------------------

    private static ObjectNode describe(String gameServerId) {
        ObjectNode input = MAPPER.createObjectNode();
        input.put("GameServerGroupName", "g-1");
        input.put("GameServerId", gameServerId);
        return input;
    }

    @Property
    void anyIdOfAllowedCharactersAndLengthIsValid(@ForAll("validIds") String id) {
        accepts("DescribeGameServer", describe(id));
    }

    @Property
    void anIdContainingAnyOtherCharacterIsRejected(@ForAll("idsWithAForeignChar") String id) {
        assertThat(rejection("DescribeGameServer", describe(id))).isEqualTo("GameServerId: must match ^[a-zA-Z0-9-\\.]+$");
    }

    @Provide
    Arbitrary<String> validIds() {
        return Arbitraries.strings().withChars(ID_CHARS).ofMinLength(3).ofMaxLength(128);
    }

    @Provide
    Arbitrary<String> idsWithAForeignChar() {
        Arbitrary<String> base = Arbitraries.strings().withChars(ID_CHARS).ofMinLength(2).ofMaxLength(127);
        Arbitrary<Character> foreign = Arbitraries.chars().filter(c -> ID_CHARS.indexOf(c) < 0);
        return Combinators.combine(base, foreign, Arbitraries.integers().between(0, 127))
                .as((s, c, at) -> {
                    int i = Math.min(at, s.length());
                    return s.substring(0, i) + c + s.substring(i);
                });
    }
}
