package io.gamefleet.infra;

import io.gamefleet.catalog.FunctionAccess.Scaling;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.PolicyStatement;

/**
 * The ECS permissions of a function that manages container groups, from what it asks of compute
 * ({@link Scaling}): a container group's ECS service answers the same calls an Auto Scaling group
 * does. The cluster is the stage's own, so the services of the stage's scaling group prefix in it
 * and its tasks are exactly the stage's; IAM offers no narrower resource for the rest (see
 * {@link #TASK_DEFINITION_ACTIONS}, {@link #LIST_TASKS}).
 */
record ContainerPermissions(Stack stack, String clusterArn, String clusterName, String servicePrefix,
        List<String> taskRoleArns) {
    /**
     * ListTasks is authorized on container instances, which Fargate tasks have none of and EC2 capacity's
     * get only at launch: '*', held to the cluster.
     */
    static final String LIST_TASKS = "ecs:ListTasks";
    /**
     * Task definition actions accept no resource-level permission (IAM requires '*'): the adapter
     * reads the studio's definition (CreateContainerGroup checks it, the activation reads it again),
     * registers the group's family and deregisters it.
     */
    static final Map<Scaling, List<String>> TASK_DEFINITION_ACTIONS = Map.of(
            Scaling.READ_TASK_DEFINITIONS, List.of("ecs:DescribeTaskDefinition"),
            Scaling.CREATE, List.of("ecs:DescribeTaskDefinition", "ecs:RegisterTaskDefinition"),
            Scaling.DELETE, List.of("ecs:DeregisterTaskDefinition"));
    /** Calls on the group's service, per capability. */
    static final Map<Scaling, List<String>> SERVICE_ACTIONS = Map.of(
            Scaling.DESCRIBE, List.of("ecs:DescribeServices"),
            // An existing ACTIVE service of the name is found, not created again.
            Scaling.CREATE, List.of("ecs:CreateService", "ecs:DescribeServices"),
            Scaling.DELETE, List.of("ecs:UpdateService", "ecs:DeleteService"),
            // No REPLACE: at a Fargate Spot warning ECS starts the replacement task itself.
            Scaling.BALANCE, List.of("ecs:UpdateService"));
    /** Calls on the cluster's tasks, per capability. */
    static final Map<Scaling, List<String>> TASK_ACTIONS = Map.of(
            Scaling.DESCRIBE, List.of("ecs:DescribeTasks", "ecs:GetTaskProtection"),
            Scaling.DESCRIBE_INSTANCES, List.of("ecs:DescribeTasks"),
            // A SAFE_DELETE lifts a task's protection once no game is left, as for an instance.
            Scaling.DELETE, List.of("ecs:UpdateTaskProtection"),
            Scaling.BALANCE, List.of("ecs:UpdateTaskProtection", "ecs:StopTask"));

    /** Whether a function with these capabilities calls ECS at all. */
    static boolean callsEcs(Set<Scaling> scaling) {
        return scaling.stream().anyMatch(s -> TASK_DEFINITION_ACTIONS.containsKey(s) || SERVICE_ACTIONS.containsKey(s)
                || TASK_ACTIONS.containsKey(s));
    }

    List<PolicyStatement> statements(Set<Scaling> scaling) {
        List<PolicyStatement> statements = new ArrayList<>();
        List<String> definitionActions = actions(TASK_DEFINITION_ACTIONS, scaling);
        if (!definitionActions.isEmpty()) {
            statements.add(ScalingPermissions.statement("ContainerTaskDefinitions", definitionActions, List.of("*"), Map.of()));
        }
        List<String> serviceActions = actions(SERVICE_ACTIONS, scaling);
        if (!serviceActions.isEmpty()) {
            statements.add(ScalingPermissions.statement("ContainerServices", serviceActions, List.of(serviceArns()), Map.of()));
        }
        if (scaling.contains(Scaling.DESCRIBE)) {
            statements.add(ScalingPermissions.statement("ListContainerTasks", List.of(LIST_TASKS), List.of("*"),
                    Map.of("ArnEquals", Map.of("ecs:cluster", clusterArn))));
        }
        List<String> taskActions = actions(TASK_ACTIONS, scaling);
        if (!taskActions.isEmpty()) {
            statements.add(ScalingPermissions.statement("ContainerTasks", taskActions, List.of(taskArns()), Map.of()));
        }
        if (scaling.contains(Scaling.CREATE)) {
            // ECS authorizes the tags of CreateService and RegisterTaskDefinition as ecs:TagResource.
            statements.add(ScalingPermissions.statement("TagContainerResourcesOnCreate", List.of("ecs:TagResource"),
                    List.of(serviceArns(), taskDefinitionArns()),
                    Map.of("StringEquals", Map.of("ecs:CreateAction", List.of("CreateService", "RegisterTaskDefinition")))));
            statements.add(ScalingPermissions.statement("PassContainerTaskRoles", List.of("iam:PassRole"), taskRoleArns,
                    Map.of("StringEquals", Map.of("iam:PassedToService", GameServerContainers.TASKS_PRINCIPAL))));
        }
        return statements;
    }

    /** The stage's services in the cluster: {@code service/<cluster>/<prefix>*}. */
    String serviceArns() {
        return arn("service", clusterName + "/" + servicePrefix + "*");
    }

    /** Every task of the cluster: {@code task/<cluster>/<task id>}. */
    String taskArns() {
        return arn("task", clusterName + "/*");
    }

    /** Every revision of the groups' families (a family is its service's name). */
    String taskDefinitionArns() {
        return arn("task-definition", servicePrefix + "*:*");
    }

    private String arn(String resource, String name) {
        return stack.formatArn(ArnComponents.builder().service("ecs").resource(resource).resourceName(name)
                .arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
    }

    private static List<String> actions(Map<Scaling, List<String>> byCapability, Set<Scaling> scaling) {
        Set<String> actions = new LinkedHashSet<>();
        for (Scaling s : Scaling.values()) {
            if (scaling.contains(s)) {
                actions.addAll(byCapability.getOrDefault(s, List.of()));
            }
        }
        return actions.stream().sorted().toList();
    }
}
