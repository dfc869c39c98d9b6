package io.gamefleet.infra;

import io.gamefleet.catalog.Catalog;
import io.gamefleet.catalog.FunctionAccess;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Settings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.Peer;
import software.amazon.awscdk.services.ec2.Port;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.Vpc;
import software.amazon.awscdk.services.ec2.VpcAttributes;
import software.amazon.awscdk.services.ecs.Cluster;
import software.amazon.awscdk.services.ecs.ContainerInsights;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.logs.LogGroup;
import software.constructs.Construct;

/**
 * What container groups run on (context {@code containers=true}): the stage's ECS cluster with
 * the FARGATE and FARGATE_SPOT capacity providers (and with {@code containerInstanceTypes} an EC2 one,
 * {@link ContainerInstances}) and Container Insights, the tasks' two roles, their
 * log group and security group; the ECS permissions of the functions that manage compute
 * ({@link ContainerPermissions}) and the settings they read; and the rule that hands the cluster's
 * stopped tasks to the function that handles EC2's interruptions.
 *
 * <p>The task role may do what the GAME_SERVER role may (its caller policy: the game server routes
 * and the push channel's {@code $connect}) and protect the cluster's tasks, which the agent sidecar does
 * through the ECS agent's endpoint. A task role session is named after its task (the task id), as
 * an instance profile session is after its instance. The execution role only pulls images and writes the
 * log group.
 */
final class GameServerContainers extends Construct {
    /** The agent's QoS beacon port (its default qosPort, PlayFab's), which clients ping over UDP. */
    static final int QOS_PORT = 3075;
    static final String TASKS_PRINCIPAL = "ecs-tasks.amazonaws.com";

    private final Cluster cluster;
    private final software.amazon.awscdk.services.iam.Role taskRole;
    private final software.amazon.awscdk.services.iam.Role executionRole;
    private final LogGroup logs;
    private final SecurityGroup securityGroup;

    GameServerContainers(Construct scope, String id, DeploymentContext context, ContainerOptions options,
            Functions functions, CallerRoles callerRoles) {
        super(scope, id);
        Stack stack = Stack.of(this);
        StageNames names = context.names();
        // Imported by id, not looked up: synthesis stays offline. The cluster and the security group
        // only need its id (the zones are the template's, unused by either).
        IVpc vpc = Vpc.fromVpcAttributes(this, "Vpc", VpcAttributes.builder().vpcId(options.vpcId())
                .availabilityZones(stack.getAvailabilityZones()).build());
        cluster = Cluster.Builder.create(this, "Cluster")
                .clusterName(names.of(Catalog.FUNCTION_PREFIX + "containers"))
                .vpc(vpc)
                .containerInsightsV2(ContainerInsights.ENABLED)
                .enableFargateCapacityProviders(true)
                .build();
        context.containerInstances().ifPresent(instances -> new ContainerInstances(this, "Instances", cluster, vpc,
                options.subnets(), instances, names));
        logs = Logs.group(this, "TaskLogs", "/" + stack.getStackName() + "/containers", context.logRetention());

        // The trust policy ECS documents for an execution role: ECS's agent assumes it, and the
        // confused-deputy conditions are documented for task roles only.
        executionRole = software.amazon.awscdk.services.iam.Role.Builder.create(this, "TaskExecutionRole")
                .assumedBy(new ServicePrincipal(TASKS_PRINCIPAL))
                .description("Gamefleet container groups' task execution: pull the images, write the task log group")
                .build();
        // GetAuthorizationToken has no resource: the pulls themselves are held to the repositories.
        executionRole.addToPrincipalPolicy(ScalingPermissions.statement("AuthorizeImagePulls",
                List.of("ecr:GetAuthorizationToken"), List.of("*"), Map.of()));
        List<String> repositories = imageRepositories(stack, options);
        executionRole.addToPrincipalPolicy(ScalingPermissions.statement("PullImages",
                List.of("ecr:BatchCheckLayerAvailability", "ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer"),
                repositories, Map.of()));
        logs.grantWrite(executionRole);

        // The tasks run as the GAME_SERVER caller role itself, as instances do: ECS names a task role's
        // session after its task, as EC2 names an instance profile's after its instance, so the API binds a
        // sidecar to its own task exactly as it binds an agent to its own instance. It holds no ECS action:
        // ECS gives the task role's credentials to every container of the task, the game server's too, and
        // IAM cannot hold a task to itself, so the backend's balancer alone protects tasks from scale-in.
        taskRole = callerRoles.role(Role.GAME_SERVER);
        taskRole.getAssumeRolePolicy().addStatements(PolicyStatement.Builder.create()
                .sid("AssumeAsContainerTasks")
                .effect(Effect.ALLOW)
                .actions(List.of("sts:AssumeRole"))
                .principals(List.of(new ServicePrincipal(TASKS_PRINCIPAL)))
                .conditions(tasksOfThisAccount(stack))
                .build());
        ContainerPermissions permissions = new ContainerPermissions(stack, cluster.getClusterArn(),
                cluster.getClusterName(), names.scalingGroupPrefix(),
                List.of(taskRole.getRoleArn(), executionRole.getRoleArn()));

        securityGroup = SecurityGroup.Builder.create(this, "TaskSecurityGroup")
                .vpc(vpc)
                .description("Gamefleet container group tasks: the QoS beacon (UDP " + QOS_PORT + ") and the game ports "
                        + options.gamePorts().from() + "-" + options.gamePorts().to() + " (TCP, UDP) from anywhere")
                .allowAllOutbound(true)
                .build();
        ContainerOptions.Ports game = options.gamePorts();
        for (var players : List.of(Peer.anyIpv4(), Peer.anyIpv6())) {
            securityGroup.addIngressRule(players, Port.udp(QOS_PORT), "QoS beacon pings");
            securityGroup.addIngressRule(players, Port.tcpRange(game.from(), game.to()), "game ports (TCP)");
            securityGroup.addIngressRule(players, Port.udpRange(game.from(), game.to()), "game ports (UDP)");
        }
        NagRules.taskSecurityGroup(securityGroup);
        NagRules.executionRole(executionRole, repositories);

        Map<String, String> settings = settings(options);
        for (Map.Entry<String, Function> entry : functions.all().entrySet()) {
            var scaling = FunctionAccess.of(entry.getKey()).scaling();
            if (ContainerPermissions.callsEcs(scaling)) {
                Function fn = entry.getValue();
                settings.forEach(fn::addEnvironment);
                permissions.statements(scaling).forEach(fn.getRole()::addToPrincipalPolicy);
                NagRules.containerFunction(fn, permissions, scaling);
            }
        }

        CfnOutput.Builder.create(stack, "ContainerClusterName").value(cluster.getClusterName())
                .description("The ECS cluster of the container groups' services").build();
        CfnOutput.Builder.create(stack, "ContainerTaskRoleArn").value(taskRole.getRoleArn())
                .description("The role every container group's task runs with (the agent sidecar's credentials)").build();
        CfnOutput.Builder.create(stack, "ContainerSecurityGroupId").value(securityGroup.getSecurityGroupId())
                .description("The security group of the container groups' tasks").build();
    }

    /** This account's ECS tasks only: the confused-deputy conditions ECS documents for task roles. */
    private static Map<String, Object> tasksOfThisAccount(Stack stack) {
        return Map.of("StringEquals", Map.of("aws:SourceAccount", stack.getAccount()),
                "ArnLike", Map.of("aws:SourceArn", stack.formatArn(ArnComponents.builder()
                        .service("ecs").resource("*").build())));
    }

    /**
     * The agent image's repository, and the repositories of this account and region, where a studio's
     * game server images are (named per group, unknown at deployment).
     */
    private static List<String> imageRepositories(Stack stack, ContainerOptions options) {
        String agent = "arn:" + Aws.PARTITION + ":ecr:" + options.agentImageRegion() + ":" + options.agentImageAccount()
                + ":repository/" + options.agentImageRepository();
        String own = stack.formatArn(ArnComponents.builder().service("ecr").resource("repository")
                .resourceName("*").arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
        return List.of(agent, own);
    }

    /** What the functions that call ECS read: the settings' names and their values. */
    private Map<String, String> settings(ContainerOptions options) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(Settings.CONTAINER_CLUSTER.environmentVariable(), cluster.getClusterName());
        settings.put(Settings.CONTAINER_SUBNETS.environmentVariable(), String.join(",", options.subnets()));
        settings.put(Settings.CONTAINER_SECURITY_GROUP.environmentVariable(), securityGroup.getSecurityGroupId());
        settings.put(Settings.AGENT_IMAGE.environmentVariable(), options.agentImage());
        settings.put(Settings.TASK_ROLE_ARN.environmentVariable(), taskRole.getRoleArn());
        settings.put(Settings.TASK_EXECUTION_ROLE_ARN.environmentVariable(), executionRole.getRoleArn());
        settings.put(Settings.CONTAINER_LOG_GROUP.environmentVariable(), logs.getLogGroupName());
        return settings;
    }
}
