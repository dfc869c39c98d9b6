package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.catalog.Schedule;
import io.gamefleet.catalog.Settings;
import io.gamefleet.catalog.Triggers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/** The deployment context (DeploymentContext): what each key changes in the template, and its refusals. */
class DeploymentContextStackTest extends SynthesizedStack {
    @Test
    void contextTunesSettingsRetentionRemovalPolicyThrottlingAndTheSchedule() throws IOException {
        Map<String, Object> context = new HashMap<>();
        context.put("removalPolicy", "destroy");
        context.put("logRetentionDays", 90);
        context.put(DeploymentContext.contextKey(Settings.CLAIM_TTL_SECONDS), "30");
        context.put(DeploymentContext.contextKey(Settings.HEALTH_TIMEOUT_SECONDS), 90);
        context.put(DeploymentContext.contextKey(Settings.VIABILITY_THRESHOLD), "0.5");
        context.put(DeploymentContext.contextKey(Settings.BALANCER_RATE_SECONDS), "150");
        context.put(DeploymentContext.EXPECTED_GAME_SERVERS, 300);
        context.put(DeploymentContext.HEARTBEAT_SECONDS, "10");
        context.put("alarmEmail", "ops@example.com");
        GamefleetStack tunedStack = stack(context);
        Template tuned = Template.fromStack(tunedStack);

        tuned.allResources("AWS::DynamoDB::Table", Map.of("DeletionPolicy", "Delete", "UpdateReplacePolicy", "Delete"));
        tuned.allResourcesProperties("AWS::Logs::LogGroup", Map.of("RetentionInDays", 90));
        tuned.allResourcesProperties("AWS::Lambda::Function", Map.of("Environment", Map.of("Variables",
                Match.objectLike(Map.of(
                        Settings.CLAIM_TTL_SECONDS.environmentVariable(), "30",
                        Settings.HEALTH_TIMEOUT_SECONDS.environmentVariable(), "90",
                        Settings.VIABILITY_THRESHOLD.environmentVariable(), "0.5",
                        Settings.BALANCER_RATE_SECONDS.environmentVariable(), "180",
                        Settings.DELETED_RETENTION_SECONDS.environmentVariable(),
                        Settings.DELETED_RETENTION_SECONDS.defaultValue())))));
        // 150 s is 3 whole minutes: the schedule's rate, the period the functions are told, and the balancer's timeout.
        tuned.hasResourceProperties("AWS::Scheduler::Schedule", Map.of("ScheduleExpression", "rate(3 minutes)"));
        tuned.hasResourceProperties("AWS::Lambda::Function", Map.of(
                "FunctionName", STAGE.of(Triggers.BALANCER.functionName()), "Timeout", 180));
        // 300 servers every 10 s, 20 claims/s updating twice: ceil(1.2 * (30 + 40)) = 84 per second.
        tuned.hasResourceProperties("AWS::ApiGatewayV2::Stage", Map.of("RouteSettings", Match.objectLike(Map.of(
                "PATCH /game-server-groups/{GameServerGroupName}/game-servers/{GameServerId}",
                Map.of("ThrottlingBurstLimit", 168, "ThrottlingRateLimit", 84)))));
        tuned.hasResourceProperties("AWS::SNS::Subscription", Map.of("Protocol", "email", "Endpoint", "ops@example.com"));
    }

    @Test
    void theScheduleRateIsRoundedUpToWholeMinutes() {
        assertThat(DeploymentContext.scheduleMinutes("1")).isEqualTo(1);
        assertThat(DeploymentContext.scheduleMinutes("60")).isEqualTo(1);
        assertThat(DeploymentContext.scheduleMinutes("61")).isEqualTo(2);
        assertThat(DeploymentContext.scheduleMinutes("0")).isEqualTo(1);
        assertThat(Functions.scheduledTimeout(60).toSeconds().intValue()).isEqualTo(900);
    }

    @Test
    void theJsonDoorAdmitsTheSessionsOfTheCallerRolesItCreates() {
        Map<String, Object> variables = variables(resources.get(functionId(Routes.JSON_DOOR.functionName())));
        for (Role role : Role.values()) {
            String roleId = getAttId(variables.get(Settings.roleArn(role).environmentVariable()));
            Map<String, Object> iamRole = props(resources.get(roleId));
            assertThat(render(iamRole.get("ManagedPolicyArns"))).as(role.name()).contains(callerPolicyId(role));
            String trust = iamRole.get("AssumeRolePolicyDocument").toString();
            assertThat(trust).as(role.name()).contains(role == Role.GAME_SERVER ? "ec2.amazonaws.com" : ":root");
        }
        for (Role role : Role.values()) {
            String roleId = getAttId(variables.get(Settings.roleArn(role).environmentVariable()));
            // The unique id too: a role recreated under the same name is another principal.
            assertThat(variables.get(Settings.roleId(role).environmentVariable()))
                    .isEqualTo(Map.of("Fn::GetAtt", List.of(roleId, "RoleId")));
        }
        // Every API function knows them (an ADMIN, an instance's own process), and the push channel's, which
        // bind $connect's caller as the API does; the others do not.
        Set<String> api = new HashSet<>();
        Routes.ALL.forEach(r -> api.add(r.functionName()));
        api.add(Routes.JSON_DOOR.functionName());
        Routes.EXTENSIONS.forEach(e -> api.add(e.functionName()));
        PushChannel.ROUTES.forEach(r -> api.add(r.functionName()));
        for (String name : functionNames()) {
            assertThat(variables(resources.get(functionId(name))).containsKey(Settings.ADMIN_ROLE_ID.environmentVariable()))
                    .as(name).isEqualTo(api.contains(name));
        }
        template.resourceCountIs("AWS::IAM::InstanceProfile", 1);
    }

    @Test
    void theCdksRecommendedFeatureFlagsAreSet() throws IOException {
        Map<String, Object> cdkJson = JSON.readValue(Path.of("cdk.json").toFile(), new TypeReference<>() {});
        @SuppressWarnings("unchecked")
        Map<String, Object> context = (Map<String, Object>) cdkJson.get("context");
        assertThat(context).containsEntry("@aws-cdk/aws-iam:minimizePolicies", true)
                .containsEntry("@aws-cdk/core:enablePartitionLiterals", true)
                .containsEntry("@aws-cdk/aws-lambda:useCdkManagedLogGroup", true);
        // The tests synthesize with them, as cdk synth does.
        assertThat(stack(Map.of()).getNode().tryGetContext("@aws-cdk/aws-iam:minimizePolicies")).isEqualTo(true);
    }

    @Test
    void everyCatalogSettingButTheDerivedOnesIsAContextKey() {
        assertThat(DeploymentContext.CONTEXT_SETTINGS).containsAll(List.of(Settings.CLAIM_TTL_SECONDS,
                Settings.HEALTH_TIMEOUT_SECONDS, Settings.DELETED_RETENTION_SECONDS, Settings.BALANCER_RATE_SECONDS,
                Settings.VIABILITY_WINDOW_SECONDS, Settings.VIABILITY_THRESHOLD))
                .doesNotContain(Settings.PAGE_TOKEN_KEY, Settings.ACCOUNT_ID, Settings.ACTIVATION_STATE_MACHINE_ARN,
                        Settings.DELETION_STATE_MACHINE_ARN);
        assertThat(DeploymentContext.DERIVED).containsExactlyInAnyOrder(Settings.PAGE_TOKEN_KEY,
                Settings.PAGE_TOKEN_SECRET_ARN, Settings.ACCOUNT_ID,
                Settings.SCALING_GROUP_PREFIX, Settings.STAGE, Settings.INSTANCE_PROFILE_ARNS,
                Settings.ACTIVATION_STATE_MACHINE_ARN, Settings.DELETION_STATE_MACHINE_ARN, Settings.ADMIN_ROLE_ARN,
                Settings.MATCHMAKER_ROLE_ARN, Settings.GAME_SERVER_ROLE_ARN, Settings.ADMIN_ROLE_ID,
                Settings.MATCHMAKER_ROLE_ID, Settings.GAME_SERVER_ROLE_ID, Settings.VIEWER_ROLE_ARN, Settings.VIEWER_ROLE_ID);
        assertThat(DeploymentContext.contextKey(Settings.CLAIM_TTL_SECONDS)).isEqualTo("claimTtlSeconds");
        assertThat(DeploymentContext.contextKey(Settings.VIABILITY_THRESHOLD)).isEqualTo("viabilityThreshold");
    }

    /** PlayFab's lifetimes by default, hours a fraction allowed, and a guarantee not below the maximum refused by name. */
    @Test
    void theLifetimesAreContextKeysInHoursCheckedAtSynthesis() {
        assertThat(DeploymentContext.contextKey(Settings.MAX_INSTANCE_LIFETIME_HOURS)).isEqualTo("maxInstanceLifetimeHours");
        assertThat(DeploymentContext.contextKey(Settings.GUARANTEED_SERVER_LIFETIME_HOURS))
                .isEqualTo("guaranteedServerLifetimeHours");
        template.allResourcesProperties("AWS::Lambda::Function", Map.of("Environment", Map.of("Variables",
                Match.objectLike(Map.of(Settings.MAX_INSTANCE_LIFETIME_HOURS.environmentVariable(), "240",
                        Settings.GUARANTEED_SERVER_LIFETIME_HOURS.environmentVariable(), "23")))));
        Template tuned = Template.fromStack(stack(Map.of("maxInstanceLifetimeHours", "36.5",
                "guaranteedServerLifetimeHours", 12)));
        tuned.allResourcesProperties("AWS::Lambda::Function", Map.of("Environment", Map.of("Variables",
                Match.objectLike(Map.of(Settings.MAX_INSTANCE_LIFETIME_HOURS.environmentVariable(), "36.5",
                        Settings.GUARANTEED_SERVER_LIFETIME_HOURS.environmentVariable(), "12")))));
        assertThatThrownBy(() -> stack(Map.of("maxInstanceLifetimeHours", "20")))
                .hasMessage("context guaranteedServerLifetimeHours (23 h) must be below context maxInstanceLifetimeHours"
                        + " (20 h): an instance would be retiring, and take no claim, from its launch");
        assertThatThrownBy(() -> stack(Map.of("guaranteedServerLifetimeHours", "-1")))
                .hasMessageContaining("context guaranteedServerLifetimeHours must be a non-negative number of hours");
        assertThat(stack(Map.of("maxInstanceLifetimeHours", "0"))).as("no limit: nothing is guaranteed").isNotNull();
    }

    @Test
    void badContextFailsSynthesis() {
        assertThatThrownBy(() -> stack(Map.of("removalPolicy", "snapshot"))).hasMessageContaining("removalPolicy");
        assertThatThrownBy(() -> stack(Map.of(DeploymentContext.contextKey(Settings.CLAIM_TTL_SECONDS), "soon")))
                .hasMessageContaining("claimTtlSeconds");
        assertThatThrownBy(() -> stack(Map.of(DeploymentContext.contextKey(Settings.VIABILITY_THRESHOLD), "high")))
                .hasMessageContaining("viabilityThreshold");
        assertThatThrownBy(() -> stack(Map.of("logRetentionDays", 10))).hasMessageContaining("logRetentionDays");
        assertThatThrownBy(() -> stack(Map.of("alarmEmail", "ops"))).hasMessageContaining("alarmEmail");
        assertThatThrownBy(() -> stack(Map.of("lambdaJar", temp.resolve("missing.jar").toString())))
                .hasMessageContaining("missing.jar");
    }

    @Test
    void defaultJarIsTheFunctionsShadedJar() {
        assertThat(LambdaJar.defaultPath())
                .isEqualTo("../functions/target/gamefleet-functions-" + LambdaJar.projectVersion() + "-lambda.jar")
                .doesNotContain("${");
    }

    /** docs/deploy.md's table of context settings names every key with its default. */
    @Test
    void theDeployPageDocumentsEveryContextKeyWithItsDefault() throws IOException {
        String deploying = Files.readString(Path.of("..", "docs", "deploy.md"));
        Map<String, String> keys = new LinkedHashMap<>();
        DeploymentContext.CONTEXT_SETTINGS.forEach(s -> keys.put(DeploymentContext.contextKey(s), s.defaultValue()));
        keys.put(DeploymentContext.REMOVAL_POLICY, DeploymentContext.DEFAULT_REMOVAL_POLICY);
        keys.put(DeploymentContext.LOG_RETENTION_DAYS, Integer.toString(DeploymentContext.DEFAULT_LOG_RETENTION_DAYS));
        keys.put(DeploymentContext.STAGE, DeploymentContext.DEFAULT_STAGE);
        keys.put(DeploymentContext.SNAP_START, "auto");
        keys.put(DeploymentContext.TRACING, "true");
        keys.put(DeploymentContext.AGENT_LOG_RETENTION_DAYS,
                Integer.toString(DeploymentContext.DEFAULT_AGENT_LOG_RETENTION_DAYS));
        keys.put(DeploymentContext.CRASH_LOOP_CRASHES, Integer.toString(DeploymentContext.DEFAULT_CRASH_LOOP_CRASHES));
        keys.put(DeploymentContext.CRASH_LOOP_MINUTES, Integer.toString(DeploymentContext.DEFAULT_CRASH_LOOP_MINUTES));
        keys.put(DeploymentContext.CONTAINERS, "false");
        keys.put(DeploymentContext.CONTAINER_GAME_PORTS, DeploymentContext.DEFAULT_CONTAINER_GAME_PORTS);
        keys.put(DeploymentContext.CONTAINER_INSTANCE_TYPES, "none");
        keys.put(DeploymentContext.CONTAINER_INSTANCES_MIN, Integer.toString(DeploymentContext.DEFAULT_CONTAINER_INSTANCES_MIN));
        keys.put(DeploymentContext.CONTAINER_INSTANCES_MAX, Integer.toString(DeploymentContext.DEFAULT_CONTAINER_INSTANCES_MAX));
        keys.put(DeploymentContext.CONTAINER_INSTANCES_ON_DEMAND_BASE,
                Integer.toString(DeploymentContext.DEFAULT_CONTAINER_INSTANCES_ON_DEMAND_BASE));
        for (Map.Entry<String, String> key : keys.entrySet()) {
            assertThat(deploying).as(key.getKey()).containsPattern(
                    "\\| `" + Pattern.quote(key.getKey()) + "` \\| " + Pattern.quote(key.getValue()) + " \\|");
        }
        assertThat(deploying).contains("`" + DeploymentContext.ALARM_EMAIL + "`", "`" + DeploymentContext.LAMBDA_JAR + "`",
                "`" + DeploymentContext.AGENT_JAR + "`", "`" + DeploymentContext.PEER_REGIONS + "`",
                "`" + DeploymentContext.AGENT_IMAGE + "`", "`" + DeploymentContext.CONTAINER_VPC_ID + "`",
                "`" + DeploymentContext.CONTAINER_SUBNETS + "`");
    }
}
