package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.PushChannel;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import io.gamefleet.catalog.Settings.Setting;
import io.gamefleet.catalog.Settings;
import io.gamefleet.catalog.TableDefinition;
import io.gamefleet.catalog.Tables;
import io.gamefleet.catalog.Triggers;
import io.gamefleet.catalog.Workflows;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The functions (Functions): one per route, step, schedule, event rule and push channel route, their
 * versions, aliases and environment.
 */
class FunctionsStackTest extends SynthesizedStack {
    @Test
    void oneFunctionPerRouteStepScheduleAndEventRule() {
        Map<String, String> handlers = new LinkedHashMap<>();
        Map<String, Integer> timeouts = new HashMap<>();
        Routes.ALL.forEach(r -> handlers.put(r.functionName(), r.handlerMethod()));
        Routes.ALL.forEach(r -> timeouts.put(r.functionName(), 20));
        handlers.put(Routes.JSON_DOOR.functionName(), Routes.JSON_DOOR.handlerMethod());
        timeouts.put(Routes.JSON_DOOR.functionName(), 20);
        Workflows.allSteps().forEach(s -> handlers.put(s.functionName(), s.handlerMethod()));
        Workflows.allSteps().forEach(s -> timeouts.put(s.functionName(), 60));
        Triggers.SCHEDULES.forEach(s -> handlers.put(s.functionName(), s.handlerMethod()));
        Triggers.SCHEDULES.forEach(s -> timeouts.put(s.functionName(), 60)); // the default rate, one minute
        Triggers.EVENT_RULES.forEach(e -> handlers.put(e.functionName(), e.handlerMethod()));
        Triggers.EVENT_RULES.forEach(e -> timeouts.put(e.functionName(), 60));
        PushChannel.ROUTES.forEach(r -> handlers.put(r.functionName(), r.handlerMethod()));
        PushChannel.ROUTES.forEach(r -> timeouts.put(r.functionName(), 20));
        Routes.EXTENSIONS.forEach(e -> handlers.put(e.functionName(), e.handlerMethod()));
        Routes.EXTENSIONS.forEach(e -> timeouts.put(e.functionName(), 20));

        template.resourceCountIs("AWS::Lambda::Function", handlers.size());
        assertThat(functionNames()).isEqualTo(handlers.keySet());
        handlers.forEach((name, handler) -> {
            Map<String, Object> p = props(resources.get(functionId(name)));
            assertThat(p).as(name)
                    .containsEntry("FunctionName", STAGE.of(name))
                    .containsEntry("Handler", handler)
                    .containsEntry("Runtime", "java21")
                    .containsEntry("MemorySize", Functions.MEMORY_MB)
                    .containsEntry("Timeout", timeouts.get(name))
                    .containsEntry("SnapStart", Map.of("ApplyOn", Map.of("Fn::FindInMap",
                            List.of("SnapStartByRegion", Map.of("Ref", "AWS::Region"), "ApplyOn"))))
                    .containsEntry("LoggingConfig", Map.of("LogGroup", ref(logGroupId(name))));
            assertThat(props(resources.get(logGroupId(name))))
                    .containsEntry("RetentionInDays", DeploymentContext.DEFAULT_LOG_RETENTION_DAYS);
        });
    }

    @Test
    void everyFunctionPublishesAVersionBehindTheLiveAlias() {
        template.resourceCountIs("AWS::Lambda::Alias", functionNames().size());
        for (String name : functionNames()) {
            Map<String, Object> alias = props(resources.get(aliasId(name)));
            assertThat(alias).containsEntry("Name", Functions.LIVE_ALIAS)
                    .containsEntry("FunctionName", ref(functionId(name)));
            String versionId = getAttId(alias.get("FunctionVersion"));
            assertThat(resources.get(versionId)).containsEntry("Type", "AWS::Lambda::Version");
            assertThat(props(resources.get(versionId))).containsEntry("FunctionName", ref(functionId(name)));
        }
    }

    @Test
    void everyFunctionGetsTablesAccountAndContextSettings() {
        for (String name : functionNames()) {
            Map<String, Object> variables = variables(resources.get(functionId(name)));
            for (TableDefinition table : Tables.ALL) {
                assertThat(variables.get(table.environmentVariable())).as(name)
                        .isEqualTo(ref(tableId(table)));
            }
            assertThat(variables.get(Settings.ACCOUNT_ID.environmentVariable())).isEqualTo(ref("AWS::AccountId"));
            assertThat(variables.get(Settings.STAGE.environmentVariable())).as(name).isEqualTo("prod");
            for (Setting setting : DeploymentContext.CONTEXT_SETTINGS) {
                assertThat(variables.get(setting.environmentVariable())).as(name + " " + setting.environmentVariable())
                        .isEqualTo(setting.defaultValue());
            }
        }
    }

    @Test
    void onlyApiFunctionsGetThePageTokenKeyAndOnlyFromTheGeneratedSecret() {
        Set<String> apiFunctions = Routes.ALL.stream().map(Route::functionName).collect(Collectors.toSet());
        apiFunctions.add(Routes.JSON_DOOR.functionName());
        Routes.EXTENSIONS.forEach(e -> apiFunctions.add(e.functionName()));
        String variable = Settings.PAGE_TOKEN_SECRET_ARN.environmentVariable();
        String secret = onlyResourceOf("AWS::SecretsManager::Secret");
        for (String name : functionNames()) {
            Map<String, Object> variables = variables(resources.get(functionId(name)));
            // No function's configuration holds the key itself (lambda:GetFunctionConfiguration would show it).
            assertThat(variables).as(name).doesNotContainKey(Settings.PAGE_TOKEN_KEY.environmentVariable());
            assertThat(variables.values().stream().map(SynthesizedStack::render)).as(name)
                    .noneMatch(v -> v.contains("resolve:secretsmanager"));
            boolean reads = statementsOf(name).stream().anyMatch(s -> actions(s).contains("secretsmanager:GetSecretValue")
                    && resourcesOf(s).contains(ref(secret)));
            if (apiFunctions.contains(name)) {
                assertThat(variables.get(variable)).as(name).isEqualTo(ref(secret));
                assertThat(reads).as(name + " reads the secret").isTrue();
            } else {
                assertThat(variables).as(name).doesNotContainKey(variable);
                assertThat(reads).as(name + " reads the secret").isFalse();
            }
        }
        assertThat(props(resources.get(secret)).get("GenerateSecretString")).isNotNull();
    }
}
