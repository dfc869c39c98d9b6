package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.catalog.FunctionAccess;
import io.gamefleet.catalog.FunctionAccess.Scaling;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Settings;
import io.gamefleet.catalog.Triggers;
import io.gamefleet.catalog.Workflows;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * Container groups' resources (GameServerContainers, context containers=true): the cluster and its
 * capacity providers, the tasks' roles with exactly their permissions, the log and security groups,
 * the compute functions' ECS permissions and settings, and the rule for the cluster's stopped tasks.
 */
class ContainerGroupsStackTest extends SynthesizedStack {
    static final String AGENT_IMAGE = "123456789012.dkr.ecr.eu-west-1.amazonaws.com/gamefleet/agent:1.0";
    static final String CLUSTER = "gamefleet-prod-containers";

    static Map<String, Object> withContainers() {
        return Map.of(DeploymentContext.CONTAINERS, "true", DeploymentContext.AGENT_IMAGE, AGENT_IMAGE,
                DeploymentContext.CONTAINER_VPC_ID, "vpc-0123456789abcdef0",
                DeploymentContext.CONTAINER_SUBNETS, "subnet-0123456789abcdef0, subnet-0fedcba9876543210");
    }

    @Override
    Map<String, Object> context() {
        return withContainers();
    }

    private String clusterId() {
        return onlyResourceOf("AWS::ECS::Cluster");
    }

    private String roleOf(String description) {
        List<String> ids = ofType("AWS::IAM::Role").entrySet().stream()
                .filter(e -> String.valueOf(props(e.getValue()).get("Description")).startsWith(description))
                .map(Map.Entry::getKey).toList();
        assertThat(ids).as(description).hasSize(1);
        return ids.get(0);
    }

    /** The tasks' role: the GAME_SERVER caller role, which instances run as too. */
    private String taskRoleId() {
        return idOfCallerRole(Role.GAME_SERVER);
    }

    private String executionRoleId() {
        return roleOf("Gamefleet container groups' task execution");
    }

    private String logGroupId() {
        return idWhere("AWS::Logs::LogGroup", "LogGroupName", "/Gamefleet/containers");
    }

    /** The ARN of the cluster's ECS resources of a type, as the template renders it. */
    private String ecsArn(String resource) {
        return "arn:<AWS::Partition>:ecs:<AWS::Region>:<AWS::AccountId>:" + resource;
    }

    @Test
    void theClusterHasContainerInsightsAndTheFargateCapacityProviders() {
        Map<String, Object> cluster = props(resources.get(clusterId()));
        assertThat(cluster).containsEntry("ClusterName", CLUSTER);
        assertThat(listOf(cluster.get("ClusterSettings")))
                .containsExactly(Map.of("Name", "containerInsights", "Value", "enabled"));
        Map<String, Object> providers = props(resources.get(onlyResourceOf("AWS::ECS::ClusterCapacityProviderAssociations")));
        assertThat(providers.get("Cluster")).isEqualTo(ref(clusterId()));
        assertThat(listOf(providers.get("CapacityProviders"))).containsExactlyInAnyOrder("FARGATE", "FARGATE_SPOT");
        // No VPC, subnet or NAT of the stack's own: the tasks run in the deployer's subnets.
        template.resourceCountIs("AWS::EC2::VPC", 0);
        template.resourceCountIs("AWS::EC2::Subnet", 0);
    }

    @Test
    void theTaskLogGroupKeepsTheStacksRetention() {
        assertThat(props(resources.get(logGroupId()))).containsEntry("RetentionInDays",
                DeploymentContext.DEFAULT_LOG_RETENTION_DAYS);
    }

    @Test
    void theTasksRunAsTheGameServerRoleForThisAccountsTasksOnlyAndTheExecutionRoleIsEcss() {
        List<Object> trust = listOf(map(props(resources.get(taskRoleId())).get("AssumeRolePolicyDocument")).get("Statement"));
        assertThat(trust).extracting(t -> map(t).get("Principal")).containsExactlyInAnyOrder(
                Map.of("Service", "ec2.amazonaws.com"), Map.of("Service", "ecs-tasks.amazonaws.com"));
        Map<String, Object> tasks = trust.stream().map(SynthesizedStack::map)
                .filter(t -> t.get("Principal").equals(Map.of("Service", "ecs-tasks.amazonaws.com"))).findFirst().orElseThrow();
        assertThat(actions(tasks)).containsExactly("sts:AssumeRole");
        Map<String, Object> conditions = map(tasks.get("Condition"));
        assertThat(conditions.get("StringEquals")).isEqualTo(Map.of("aws:SourceAccount", Map.of("Ref", "AWS::AccountId")));
        assertThat(render(map(conditions.get("ArnLike")).get("aws:SourceArn"))).isEqualTo(ecsArn("*"));
        Map<String, Object> execution = onlyTrustStatement(executionRoleId());
        assertThat(execution.get("Principal")).isEqualTo(Map.of("Service", "ecs-tasks.amazonaws.com"));
        assertThat(actions(execution)).containsExactly("sts:AssumeRole");
        assertThat(execution).doesNotContainKey("Condition");
    }

    private Map<String, Object> onlyTrustStatement(String role) {
        List<Object> trust = listOf(map(props(resources.get(role)).get("AssumeRolePolicyDocument")).get("Statement"));
        assertThat(trust).hasSize(1);
        return map(trust.get(0));
    }

    @Test
    void theExecutionRoleOnlyPullsImagesAndWritesTheTaskLogs() {
        List<Map<String, Object>> statements = statementsOfRole(executionRoleId());
        assertThat(statements).hasSize(3);
        assertThat(statements.get(0)).containsEntry("Action", "ecr:GetAuthorizationToken").containsEntry("Resource", "*");
        assertThat(actions(statements.get(1))).containsExactly("ecr:BatchCheckLayerAvailability", "ecr:BatchGetImage",
                "ecr:GetDownloadUrlForLayer");
        assertThat(resourcesOf(statements.get(1)).stream().map(SynthesizedStack::render)).containsExactlyInAnyOrder(
                "arn:<AWS::Partition>:ecr:eu-west-1:123456789012:repository/gamefleet/agent",
                "arn:<AWS::Partition>:ecr:<AWS::Region>:<AWS::AccountId>:repository/*");
        assertThat(actions(statements.get(2))).containsExactly("logs:CreateLogStream", "logs:PutLogEvents");
        assertThat(resourcesOf(statements.get(2))).containsExactly(Map.of("Fn::GetAtt", List.of(logGroupId(), "Arn")));
        assertThat(props(resources.get(executionRoleId()))).doesNotContainKey("ManagedPolicyArns");
    }

    @Test
    void theTaskRoleMayWhatAGameServerMayAndNoEcsAction() {
        Map<String, Object> role = props(resources.get(taskRoleId()));
        // The GAME_SERVER role's own policies, no more: its routes and push channel, and the agent's (the
        // agent's jar, and its log archive under its own instance's keys, which a task's instance id is).
        assertThat(listOf(role.get("ManagedPolicyArns"))).containsExactlyInAnyOrder(
                ref(callerPolicyId(Role.GAME_SERVER)), ref(agentPolicyId()));
        // Every container of a task, the game server's too, can take the task role's credentials: it may
        // protect, unprotect or stop no task, its own or another's (the balancer protects them).
        List<Map<String, Object>> statements = new java.util.ArrayList<>(statementsOfRole(taskRoleId()));
        for (String policy : List.of(callerPolicyId(Role.GAME_SERVER), agentPolicyId())) {
            listOf(map(props(resources.get(policy)).get("PolicyDocument")).get("Statement"))
                    .forEach(s -> statements.add(cast(s)));
        }
        assertThat(statements).isNotEmpty();
        assertThat(statements.stream().flatMap(s -> actions(s).stream())).noneMatch(a -> a.toLowerCase().startsWith("ecs:"));
    }

    private String agentPolicyId() {
        List<String> ids = ofType("AWS::IAM::ManagedPolicy").entrySet().stream()
                .filter(e -> String.valueOf(props(e.getValue()).get("Description")).startsWith("Gamefleet agents"))
                .map(Map.Entry::getKey).toList();
        assertThat(ids).hasSize(1);
        return ids.get(0);
    }

    private String idOfCallerRole(Role role) {
        return roleOf("Gamefleet " + role + " callers");
    }

    @Test
    void theSecurityGroupAdmitsTheQosBeaconAndTheGamePortsOnly() {
        Map<String, Object> group = props(resources.get(onlyResourceOf("AWS::EC2::SecurityGroup")));
        assertThat(group).containsEntry("VpcId", "vpc-0123456789abcdef0");
        Set<String> rules = new TreeSet<>();
        for (Object r : listOf(group.get("SecurityGroupIngress"))) {
            Map<String, Object> rule = map(r);
            Object from = rule.containsKey("CidrIp") ? rule.get("CidrIp") : rule.get("CidrIpv6");
            rules.add(rule.get("IpProtocol") + " " + rule.get("FromPort") + "-" + rule.get("ToPort") + " " + from);
        }
        assertThat(rules).containsExactlyInAnyOrder("udp 3075-3075 0.0.0.0/0", "udp 3075-3075 ::/0",
                "tcp 7777-7780 0.0.0.0/0", "tcp 7777-7780 ::/0", "udp 7777-7780 0.0.0.0/0", "udp 7777-7780 ::/0");
    }

    @Test
    void theGamePortsComeFromContext() {
        Template other = Template.fromStack(stack(merged(DeploymentContext.CONTAINER_GAME_PORTS, "30000-30100")));
        assertThat(String.valueOf(other.findResources("AWS::EC2::SecurityGroup")))
                .contains("FromPort=30000", "ToPort=30100").doesNotContain("FromPort=7777");
        assertThatThrownBy(() -> stack(merged(DeploymentContext.CONTAINER_GAME_PORTS, "7780-7777")))
                .hasMessageContaining(DeploymentContext.CONTAINER_GAME_PORTS);
    }

    /** The ECS actions each capability brings, as a function's statements must hold them (none without). */
    @Test
    void eachComputeFunctionMayMakeExactlyItsEcsCallsOnTheStagesServicesAndTheClustersTasks() {
        String services = ecsArn("service/<" + clusterId() + ">/gamefleet-prod_*");
        String tasks = ecsArn("task/<" + clusterId() + ">/*");
        for (String name : functionNames()) {
            Set<Scaling> scaling = FunctionAccess.of(name).scaling();
            Map<String, Map<String, Object>> bySid = new HashMap<>();
            statementsOf(name).stream().filter(s -> actions(s).stream().anyMatch(a -> a.startsWith("ecs:")
                    || a.equals("iam:PassRole") && String.valueOf(s).contains("ecs-tasks")))
                    .forEach(s -> bySid.put((String) s.get("Sid"), s));
            Set<String> expected = new TreeSet<>();
            scaling.forEach(c -> expected.addAll(ContainerPermissions.SERVICE_ACTIONS.getOrDefault(c, List.of())));
            scaling.forEach(c -> expected.addAll(ContainerPermissions.TASK_ACTIONS.getOrDefault(c, List.of())));
            scaling.forEach(c -> expected.addAll(ContainerPermissions.TASK_DEFINITION_ACTIONS.getOrDefault(c, List.of())));
            if (scaling.contains(Scaling.DESCRIBE)) {
                expected.add("ecs:ListTasks");
            }
            if (scaling.contains(Scaling.CREATE)) {
                expected.addAll(List.of("ecs:TagResource", "iam:PassRole"));
            }
            Set<String> granted = new TreeSet<>();
            bySid.values().forEach(s -> granted.addAll(actions(s)));
            assertThat(granted).as(name).isEqualTo(expected);
            if (bySid.containsKey("ContainerServices")) {
                assertThat(render(bySid.get("ContainerServices").get("Resource"))).as(name).isEqualTo(services);
            }
            if (bySid.containsKey("ContainerTasks")) {
                assertThat(render(bySid.get("ContainerTasks").get("Resource"))).as(name).isEqualTo(tasks);
            }
            if (bySid.containsKey("ListContainerTasks")) {
                assertThat(bySid.get("ListContainerTasks")).containsEntry("Resource", "*").containsEntry("Condition",
                        Map.of("ArnEquals", Map.of("ecs:cluster", Map.of("Fn::GetAtt", List.of(clusterId(), "Arn")))));
            }
            if (bySid.containsKey("ContainerTaskDefinitions")) {
                assertThat(bySid.get("ContainerTaskDefinitions")).containsEntry("Resource", "*");
            }
        }
        // The service ARN pattern: this stage's groups' services, not another stage's of the same group name.
        Pattern stage = iamGlob(services.replace("<" + clusterId() + ">", CLUSTER));
        assertThat(stage.matcher(ecsArn("service/" + CLUSTER + "/gamefleet-prod_tasks_arena")).matches()).isTrue();
        assertThat(stage.matcher(ecsArn("service/" + CLUSTER + "/gamefleet-prod-eu_tasks_arena")).matches()).isFalse();
        assertThat(stage.matcher(ecsArn("service/another/gamefleet-prod_tasks_arena")).matches()).isFalse();
    }

    @Test
    void theFunctionsThatCallAutoScalingTodayCallEcs() {
        for (String name : List.of(Workflows.CREATE_SCALING_GROUP.functionName(), Workflows.DELETE_SCALING_GROUP.functionName(),
                Workflows.CHECK_ACTIVATION.functionName(), Triggers.BALANCER.functionName(),
                Triggers.INSTANCE_EVENTS.functionName())) {
            assertThat(statementsOf(name).stream().flatMap(s -> actions(s).stream())).as(name)
                    .anyMatch(a -> a.startsWith("ecs:"));
        }
        assertThat(statementsOf(Workflows.START_ACTIVATION.functionName()).stream().flatMap(s -> actions(s).stream()))
                .noneMatch(a -> a.startsWith("ecs:"));
        assertThat(statementsOf(Triggers.INSTANCE_EVENTS.functionName()).stream().flatMap(s -> actions(s).stream()))
                .as("it reads: ECS replaces an interrupted task itself").noneMatch(a -> a.startsWith("ecs:")
                        && !a.startsWith("ecs:Describe") && !a.startsWith("ecs:List") && !a.startsWith("ecs:Get"));
    }

    @Test
    void onlyTheCreatingStepPassesTheTwoRolesAndOnlyToEcsTasks() {
        for (String name : functionNames()) {
            List<Map<String, Object>> passes = statementsOf(name).stream()
                    .filter(s -> "PassContainerTaskRoles".equals(s.get("Sid"))).toList();
            if (!FunctionAccess.of(name).scaling().contains(Scaling.CREATE)) {
                assertThat(passes).as(name).isEmpty();
                continue;
            }
            assertThat(passes).as(name).singleElement().satisfies(pass -> {
                assertThat(pass).containsEntry("Action", "iam:PassRole");
                assertThat(resourcesOf(pass)).containsExactlyInAnyOrder(Map.of("Fn::GetAtt", List.of(taskRoleId(), "Arn")),
                        Map.of("Fn::GetAtt", List.of(executionRoleId(), "Arn")));
                assertThat(pass.get("Condition")).isEqualTo(
                        Map.of("StringEquals", Map.of("iam:PassedToService", "ecs-tasks.amazonaws.com")));
            });
            Map<String, Object> tag = statementsOf(name).stream()
                    .filter(s -> "TagContainerResourcesOnCreate".equals(s.get("Sid"))).findFirst().orElseThrow();
            assertThat(tag.get("Condition")).isEqualTo(Map.of("StringEquals",
                    Map.of("ecs:CreateAction", List.of("CreateService", "RegisterTaskDefinition"))));
        }
    }

    @Test
    void theComputeFunctionsReadTheContainerSettingsAndNoOtherDoes() {
        Map<String, Object> expected = new HashMap<>();
        expected.put(Settings.CONTAINER_CLUSTER.environmentVariable(), ref(clusterId()));
        expected.put(Settings.CONTAINER_SUBNETS.environmentVariable(), "subnet-0123456789abcdef0,subnet-0fedcba9876543210");
        expected.put(Settings.CONTAINER_SECURITY_GROUP.environmentVariable(),
                Map.of("Fn::GetAtt", List.of(onlyResourceOf("AWS::EC2::SecurityGroup"), "GroupId")));
        expected.put(Settings.AGENT_IMAGE.environmentVariable(), AGENT_IMAGE);
        expected.put(Settings.TASK_ROLE_ARN.environmentVariable(), Map.of("Fn::GetAtt", List.of(taskRoleId(), "Arn")));
        expected.put(Settings.TASK_EXECUTION_ROLE_ARN.environmentVariable(), Map.of("Fn::GetAtt", List.of(executionRoleId(), "Arn")));
        expected.put(Settings.CONTAINER_LOG_GROUP.environmentVariable(), ref(logGroupId()));
        for (String name : functionNames()) {
            Map<String, Object> variables = variables(resources.get(functionId(name)));
            if (ContainerPermissions.callsEcs(FunctionAccess.of(name).scaling())) {
                assertThat(variables).as(name).containsAllEntriesOf(expected);
            } else {
                assertThat(variables).as(name).doesNotContainKeys(expected.keySet().toArray(String[]::new));
            }
        }
    }

    /**
     * Lambda refuses an environment above 4 KB (names and values). A value resolved at deployment
     * is counted at its longest: an ARN 128 characters, a role's unique id 21, a security group's id
     * 20, the account 12, a region 14, a name 64.
     */
    @Test
    void theComputeFunctionsEnvironmentsStayWithinLambdasLimit() {
        for (String name : functionNames()) {
            int size = 0;
            for (Map.Entry<String, Object> variable : variables(resources.get(functionId(name))).entrySet()) {
                size += variable.getKey().length() + resolvedLength(variable.getValue());
            }
            assertThat(size).as(name).isLessThan(4096);
        }
    }

    private static int resolvedLength(Object value) {
        if (value instanceof String text) {
            return text.length();
        }
        Map<String, Object> token = map(value);
        if (token.containsKey("Fn::Join")) {
            List<Object> parts = cast(SynthesizedStack.<List<Object>>cast(token.get("Fn::Join")).get(1));
            return parts.stream().mapToInt(ContainerGroupsStackTest::resolvedLength).sum();
        }
        if (token.containsKey("Fn::GetAtt")) {
            String attribute = (String) SynthesizedStack.<List<Object>>cast(token.get("Fn::GetAtt")).get(1);
            return switch (attribute) {
                case "RoleId" -> 21;
                case "GroupId" -> 20;
                default -> attribute.endsWith("Arn") ? 128 : 64;
            };
        }
        return switch (String.valueOf(token.get("Ref"))) {
            case "AWS::AccountId" -> 12;
            case "AWS::Region" -> 14;
            case "AWS::Partition" -> 10;
            default -> 64;
        };
    }

    @Test
    void withoutContainersTheStackHasNoneOfIt() {
        Template plain = Template.fromStack(stack(Map.of()));
        plain.resourceCountIs("AWS::ECS::Cluster", 0);
        plain.resourceCountIs("AWS::EC2::SecurityGroup", 0);
        assertThat(String.valueOf(plain.toJSON())).doesNotContain("ecs:", Settings.CONTAINER_CLUSTER.environmentVariable());
    }

    @Test
    void containersNeedAnEcrAgentImageAVpcAndSubnets() {
        Map<String, Object> noImage = new HashMap<>(withContainers());
        noImage.remove(DeploymentContext.AGENT_IMAGE);
        assertThatThrownBy(() -> stack(noImage)).hasMessageContaining("context agentImage is required with containers=true");
        assertThatThrownBy(() -> stack(merged(DeploymentContext.AGENT_IMAGE, "docker.io/gamefleet/agent:1.0")))
                .hasMessageContaining("context agentImage must be an ECR image URI");
        assertThatThrownBy(() -> stack(merged(DeploymentContext.CONTAINER_VPC_ID, "")))
                .hasMessageContaining("context containerVpcId is required");
        assertThatThrownBy(() -> stack(merged(DeploymentContext.CONTAINER_SUBNETS, "subnet-1,")))
                .hasMessageContaining("context containerSubnets");
        assertThatThrownBy(() -> stack(merged(DeploymentContext.CONTAINERS, "yes")))
                .hasMessageContaining("context containers must be true or false");
        // A digest is as good as a tag.
        assertThat(stack(merged(DeploymentContext.AGENT_IMAGE, "123456789012.dkr.ecr.us-east-1.amazonaws.com/agent@sha256:"
                + "0".repeat(64)))).isNotNull();
    }

    private static Map<String, Object> merged(String key, Object value) {
        Map<String, Object> context = new HashMap<>(withContainers());
        context.put(key, value);
        return context;
    }
}
