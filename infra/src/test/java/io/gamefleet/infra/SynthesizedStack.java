package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.catalog.Catalog;
import io.gamefleet.catalog.KeyAttribute;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.TableDefinition;
import io.gamefleet.catalog.Tables;
import io.gamefleet.catalog.WorkflowDefinition;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.assertions.Template;

/**
 * The stack synthesized once per test class (no credentials, no network), with the helpers that
 * read its template: resources by type and id, function roles' statements, CloudFormation values
 * as text. Each subclass checks one construct against the catalog.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SynthesizedStack {
    /** The default stage: the template's physical names carry it. */
    static final StageNames STAGE = new StageNames(DeploymentContext.DEFAULT_STAGE);
    static final ObjectMapper JSON = new ObjectMapper();
    static final Set<String> WRITE_ACTIONS = Set.of("dynamodb:PutItem", "dynamodb:UpdateItem",
            "dynamodb:DeleteItem", "dynamodb:ConditionCheckItem", "dynamodb:BatchWriteItem");

    @TempDir
    static Path temp;

    /**
     * The tables are retained on deletion and hold the service's state: a new logical id would
     * make CloudFormation orphan a table and create an empty one.
     */
    static final Map<String, String> TABLE_IDS = Map.of(
            Tables.GAME_SERVER_GROUPS.logicalName(), "GameServerGroupsAB2F042C",
            Tables.GAME_SERVERS.logicalName(), "GameServers79342818",
            Tables.GAME_SERVER_INSTANCES.logicalName(), "GameServerInstancesCFE61C9B",
            Tables.SPOT_INTERRUPTIONS.logicalName(), "SpotInterruptions99BC1F31");

    Template template;
    Map<String, Map<String, Object>> resources;

    @BeforeAll
    void synthesize() throws IOException {
        template = Template.fromStack(stack(context()));
        resources = cast(template.toJSON().get("Resources"));
    }

    /** The context the class's stack is synthesized with: none but cdk.json's by default. */
    Map<String, Object> context() {
        return Map.of();
    }

    // ---- helpers ----

    GamefleetStack stack(Map<String, Object> context) {
        return TestApps.stack(temp, context, "Gamefleet");
    }

    /** The catalog names of the stack's functions (the template has them with the stage in). */
    Set<String> functionNames() {
        // CDK's own functions (the console's BucketDeployment copier) have no name of the catalog's.
        return ofType("AWS::Lambda::Function").values().stream().map(f -> (String) props(f).get("FunctionName"))
                .filter(java.util.Objects::nonNull)
                .map(physical -> Catalog.FUNCTION_PREFIX + physical.substring(STAGE.prefix().length()))
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    String functionId(String functionName) {
        return idWhere("AWS::Lambda::Function", "FunctionName", STAGE.of(functionName));
    }

    /** The alias of the function (each function has exactly one). */
    String aliasId(String functionName) {
        return idWhere("AWS::Lambda::Alias", "FunctionName", ref(functionId(functionName)));
    }

    String logGroupId(String functionName) {
        return idWhere("AWS::Logs::LogGroup", "LogGroupName", "/Gamefleet/lambda/" + functionName);
    }

    String tableId(TableDefinition table) {
        return TABLE_IDS.get(table.logicalName());
    }

    String stateMachineId(WorkflowDefinition workflow) {
        return idWhere("AWS::StepFunctions::StateMachine", "StateMachineName", STAGE.of(workflow.stateMachineName()));
    }

    String callerPolicyId(Role role) {
        List<String> ids = ofType("AWS::IAM::ManagedPolicy").entrySet().stream()
                .filter(e -> ((String) props(e.getValue()).get("Description"))
                        .startsWith("Gamefleet " + role + " callers:"))
                .map(Map.Entry::getKey).toList();
        assertThat(ids).as(role.name()).hasSize(1);
        return ids.get(0);
    }

    /** The logical id of the one resource of the type whose property has the value. */
    String idWhere(String type, String property, Object value) {
        List<String> ids = ofType(type).entrySet().stream()
                .filter(e -> value.equals(props(e.getValue()).get(property))).map(Map.Entry::getKey).toList();
        assertThat(ids).as(type + " with " + property + " " + value).hasSize(1);
        return ids.get(0);
    }

    /** The HTTP API (the other AWS::ApiGatewayV2::Api is the push channel's WebSocket API). */
    String httpApiId() {
        return idWhere("AWS::ApiGatewayV2::Api", "ProtocolType", "HTTP");
    }

    String pushApiId() {
        return idWhere("AWS::ApiGatewayV2::Api", "ProtocolType", "WEBSOCKET");
    }

    /** The resources of the type that belong to the API (their ApiId is its Ref). */
    Map<String, Map<String, Object>> ofApi(String type, String apiId) {
        return ofType(type).entrySet().stream().filter(e -> ref(apiId).equals(props(e.getValue()).get("ApiId")))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    String onlyResourceOf(String type) {
        assertThat(ofType(type)).as(type).hasSize(1);
        return ofType(type).keySet().iterator().next();
    }

    static Map<String, Object> ref(String logicalId) {
        return Map.of("Ref", logicalId);
    }

    Map<String, Map<String, Object>> ofType(String type) {
        return resources.entrySet().stream().filter(e -> type.equals(e.getValue().get("Type")))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    static Map<String, Object> props(Map<String, Object> resource) {
        return cast(resource.get("Properties"));
    }

    static Map<String, Object> variables(Map<String, Object> function) {
        return cast(map(props(function).get("Environment")).get("Variables"));
    }

    /** The policy statements attached to the role of the named function. */
    List<Map<String, Object>> statementsOf(String functionName) {
        Map<String, Object> fn = resources.get(functionId(functionName));
        List<Object> roleArn = cast(map(props(fn).get("Role")).get("Fn::GetAtt"));
        return statementsOfRole((String) roleArn.get(0));
    }

    List<Map<String, Object>> statementsOfRole(String roleId) {
        Map<String, Object> roleRef = ref(roleId);
        return ofType("AWS::IAM::Policy").values().stream()
                .map(SynthesizedStack::props)
                .filter(p -> listOf(p.get("Roles")).contains(roleRef))
                .flatMap(p -> listOf(map(p.get("PolicyDocument")).get("Statement")).stream())
                .map(s -> SynthesizedStack.<Map<String, Object>>cast(s))
                .toList();
    }

    /** The tables a function's DynamoDB statements reach (by logical id), indexes included. */
    Set<String> tablesTouchedBy(String functionName) {
        Set<String> touched = new HashSet<>();
        for (Map<String, Object> s : statementsOf(functionName)) {
            if (actions(s).stream().anyMatch(a -> a.startsWith("dynamodb:"))) {
                for (Object r : resourcesOf(s)) {
                    String rendered = render(r);
                    touched.add(rendered.substring(1, rendered.indexOf('.')));
                }
            }
        }
        return touched;
    }

    static List<String> actions(Map<String, Object> statement) {
        Object action = statement.get("Action");
        return action instanceof List<?> list ? list.stream().map(Object::toString).toList() : List.of(action.toString());
    }

    static List<Object> resourcesOf(Map<String, Object> statement) {
        Object resource = statement.get("Resource");
        return resource instanceof List<?> list ? List.copyOf(list) : List.of(resource);
    }

    /** A CloudFormation value as text: Ref as {@code <Id>}, GetAtt as {@code <Id.Attr>}, joins joined. */
    static String render(Object value) {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(SynthesizedStack::render).collect(Collectors.joining(","));
        }
        Map<String, Object> m = map(value);
        if (m.containsKey("Ref")) {
            return "<" + m.get("Ref") + ">";
        }
        if (m.containsKey("Fn::GetAtt")) {
            List<Object> att = cast(m.get("Fn::GetAtt"));
            return "<" + att.get(0) + "." + att.get(1) + ">";
        }
        if (m.containsKey("Fn::Sub") && m.get("Fn::Sub") instanceof String sub) {
            return sub;
        }
        if (m.containsKey("Fn::Join")) {
            List<Object> join = cast(m.get("Fn::Join"));
            List<Object> parts = cast(join.get(1));
            return parts.stream().map(SynthesizedStack::render).collect(Collectors.joining((String) join.get(0)));
        }
        return String.valueOf(value);
    }

    /** An IAM resource pattern: '*' matches any characters, '/' included, '?' exactly one. */
    static Pattern iamGlob(String pattern) {
        StringBuilder regex = new StringBuilder();
        StringBuilder literal = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            if (c == '*' || c == '?') {
                if (literal.length() > 0) {
                    regex.append(Pattern.quote(literal.toString()));
                    literal.setLength(0);
                }
                regex.append(c == '*' ? ".*" : ".");
            } else {
                literal.append(c);
            }
        }
        if (literal.length() > 0) {
            regex.append(Pattern.quote(literal.toString()));
        }
        return Pattern.compile(regex.toString());
    }

    static List<Object> keySchema(KeyAttribute partitionKey, KeyAttribute sortKey) {
        return Stream.of(Map.of("AttributeName", partitionKey.name(), "KeyType", "HASH"),
                        sortKey == null ? null : Map.of("AttributeName", sortKey.name(), "KeyType", "RANGE"))
                .filter(java.util.Objects::nonNull).map(Function.<Object>identity()).toList();
    }

    static List<Object> listOf(Object value) {
        return value == null ? List.of() : cast(value);
    }

    @SuppressWarnings("unchecked")
    static <T> T cast(Object value) {
        return (T) value;
    }

    /** The logical id in {"Fn::GetAtt": [id, attribute]}. */
    static String getAttId(Object value) {
        List<Object> att = cast(map(value).get("Fn::GetAtt"));
        return (String) att.get(0);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }
}
