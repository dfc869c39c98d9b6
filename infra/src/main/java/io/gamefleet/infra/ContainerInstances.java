package io.gamefleet.infra;

import io.gamefleet.catalog.Catalog;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.autoscaling.AutoScalingGroup;
import software.amazon.awscdk.services.autoscaling.InstancesDistribution;
import software.amazon.awscdk.services.autoscaling.LaunchTemplateOverrides;
import software.amazon.awscdk.services.autoscaling.MixedInstancesPolicy;
import software.amazon.awscdk.services.autoscaling.OnDemandAllocationStrategy;
import software.amazon.awscdk.services.autoscaling.SpotAllocationStrategy;
import software.amazon.awscdk.services.ec2.BlockDevice;
import software.amazon.awscdk.services.ec2.BlockDeviceVolume;
import software.amazon.awscdk.services.ec2.EbsDeviceOptions;
import software.amazon.awscdk.services.ec2.EbsDeviceVolumeType;
import software.amazon.awscdk.services.ec2.ISubnet;
import software.amazon.awscdk.services.ec2.IVpc;
import software.amazon.awscdk.services.ec2.InstanceType;
import software.amazon.awscdk.services.ec2.LaunchTemplate;
import software.amazon.awscdk.services.ec2.LaunchTemplateHttpTokens;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.Subnet;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.ec2.UserData;
import software.amazon.awscdk.services.ecs.AmiHardwareType;
import software.amazon.awscdk.services.ecs.AsgCapacityProvider;
import software.amazon.awscdk.services.ecs.CapacityProviderStrategy;
import software.amazon.awscdk.services.ecs.Cluster;
import software.amazon.awscdk.services.ecs.EcsOptimizedImage;
import software.amazon.awscdk.services.ecs.MachineImageType;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.constructs.Construct;

/**
 * EC2 capacity for container groups (context {@code containerInstanceTypes}): an Auto Scaling
 * group of x86_64 ECS-optimized Amazon Linux 2023 instances in the tasks' subnets, Spot above an
 * on-demand base, as the cluster's capacity provider (managed scaling, managed termination
 * protection and draining) and its default strategy, which a group of {@code "Capacity": "EC2"}
 * gets (its service names no strategy).
 *
 * <p>The game servers are hostile, so an instance holds nothing a task could use: IMDSv2 only with a
 * hop limit of 1 (a container behind Docker's bridge is a hop away), awsvpc tasks cut off from the
 * metadata address ({@code ECS_AWSVPC_BLOCK_IMDS}), no privileged container, and a role that may do
 * only what ECS's agent does for this cluster. Image pulls and task logs go through each task's
 * execution role. Its security group admits nothing; the tasks keep theirs. No key pair: no SSH.
 */
final class ContainerInstances extends Construct {
    /** The ECS-optimized AMI's root device; 30 GiB is its snapshot's size. */
    static final String ROOT_DEVICE = "/dev/xvda";
    static final int ROOT_VOLUME_GIB = 30;
    static final String INSTANCES_PRINCIPAL = "ec2.amazonaws.com";
    /** The agent's actions on the cluster itself: joining and leaving it, reporting its tasks' state. */
    static final List<String> CLUSTER_ACTIONS = List.of("ecs:DeregisterContainerInstance",
            "ecs:RegisterContainerInstance", "ecs:SubmitAttachmentStateChanges", "ecs:SubmitContainerStateChange",
            "ecs:SubmitTaskStateChange");
    /**
     * The agent's actions on its own container instance, whose id is known once it has registered:
     * receiving work, sending telemetry, and setting itself DRAINING at a Spot interruption notice.
     */
    static final List<String> INSTANCE_ACTIONS = List.of("ecs:Poll", "ecs:StartTelemetrySession",
            "ecs:UpdateContainerInstancesState");
    /** Where to poll: no resource. */
    static final String DISCOVER_POLL_ENDPOINT = "ecs:DiscoverPollEndpoint";
    /** The agent's settings, after the cluster's name (which CDK writes). */
    static final List<String> AGENT_SETTINGS = List.of(
            // awsvpc tasks cannot reach the instance metadata, so neither the instance role.
            "ECS_AWSVPC_BLOCK_IMDS=true",
            // No container gets the host's devices and capabilities.
            "ECS_DISABLE_PRIVILEGED=true",
            // The awslogs driver writes with the task's execution role, not the instance's.
            "ECS_ENABLE_AWSLOGS_EXECUTIONROLE_OVERRIDE=true",
            // A Spot interruption notice drains the instance: its tasks get SIGTERM, as on Fargate Spot.
            "ECS_ENABLE_SPOT_INSTANCE_DRAINING=true");

    ContainerInstances(Construct scope, String id, Cluster cluster, IVpc vpc, List<String> subnetIds,
            ContainerInstanceOptions options, StageNames names) {
        super(scope, id);
        String name = names.of(Catalog.FUNCTION_PREFIX + "container-instances");

        Role role = Role.Builder.create(this, "InstanceRole")
                .assumedBy(new ServicePrincipal(INSTANCES_PRINCIPAL))
                .description("Gamefleet container instances: the ECS agent serves the stage's cluster, nothing else")
                .build();
        role.addToPrincipalPolicy(ScalingPermissions.statement("ServeTheCluster", CLUSTER_ACTIONS,
                List.of(cluster.getClusterArn()), Map.of()));
        role.addToPrincipalPolicy(ScalingPermissions.statement("ServeOwnContainerInstance", INSTANCE_ACTIONS,
                List.of("*"), Map.of("ArnEquals", Map.of("ecs:cluster", cluster.getClusterArn()))));
        role.addToPrincipalPolicy(ScalingPermissions.statement("DiscoverPollEndpoint", List.of(DISCOVER_POLL_ENDPOINT),
                List.of("*"), Map.of()));
        NagRules.containerInstanceRole(role);

        SecurityGroup securityGroup = SecurityGroup.Builder.create(this, "SecurityGroup")
                .vpc(vpc)
                .description("Gamefleet container instances: no inbound (the tasks have their own group); outbound to ECS")
                .allowAllOutbound(true)
                .build();

        UserData userData = UserData.forLinux();
        AGENT_SETTINGS.forEach(setting -> userData.addCommands("echo " + setting + " >> /etc/ecs/ecs.config"));
        LaunchTemplate launchTemplate = LaunchTemplate.Builder.create(this, "LaunchTemplate")
                .machineImage(EcsOptimizedImage.amazonLinux2023(AmiHardwareType.STANDARD))
                .userData(userData)
                // The cluster would add its own grants to a mutable role (logs and ECR on '*'): the
                // statements above are the role's whole policy.
                .role(role.withoutPolicyUpdates())
                .securityGroup(securityGroup)
                .httpEndpoint(true)
                .httpTokens(LaunchTemplateHttpTokens.REQUIRED)
                .httpPutResponseHopLimit(1)
                .blockDevices(List.of(BlockDevice.builder().deviceName(ROOT_DEVICE)
                        .volume(BlockDeviceVolume.ebs(ROOT_VOLUME_GIB, EbsDeviceOptions.builder().encrypted(true)
                                .volumeType(EbsDeviceVolumeType.GP3).deleteOnTermination(true).build()))
                        .build()))
                .build();

        List<ISubnet> subnets = IntStream.range(0, subnetIds.size())
                .mapToObj(i -> Subnet.fromSubnetId(this, "Subnet" + i, subnetIds.get(i))).toList();
        // The group needs only the subnets' ids (the template's VPCZoneIdentifier), never their route tables.
        Annotations.of(this).acknowledgeWarning("@aws-cdk/aws-ec2:noSubnetRouteTableId",
                "The Auto Scaling group reads only the subnets' ids");
        AutoScalingGroup group = AutoScalingGroup.Builder.create(this, "Group")
                .autoScalingGroupName(name)
                .vpc(vpc)
                .vpcSubnets(SubnetSelection.builder().subnets(subnets).build())
                .minCapacity(options.min())
                .maxCapacity(options.max())
                .mixedInstancesPolicy(MixedInstancesPolicy.builder()
                        .launchTemplate(launchTemplate)
                        .launchTemplateOverrides(options.instanceTypes().stream()
                                .map(t -> LaunchTemplateOverrides.builder().instanceType(new InstanceType(t)).build())
                                .toList())
                        .instancesDistribution(InstancesDistribution.builder()
                                .onDemandBaseCapacity(options.onDemandBase())
                                .onDemandPercentageAboveBaseCapacity(0)
                                .onDemandAllocationStrategy(OnDemandAllocationStrategy.PRIORITIZED)
                                .spotAllocationStrategy(SpotAllocationStrategy.PRICE_CAPACITY_OPTIMIZED)
                                .build())
                        .build())
                .build();
        NagRules.containerInstanceGroup(group);

        // AMAZON_LINUX_2 is CDK's kind for every ECS-optimized Amazon Linux: the agent reads /etc/ecs/ecs.config.
        AsgCapacityProvider capacityProvider = AsgCapacityProvider.Builder.create(this, "CapacityProvider")
                .capacityProviderName(name)
                .autoScalingGroup(group)
                .machineImageType(MachineImageType.AMAZON_LINUX_2)
                .enableManagedScaling(true)
                .enableManagedTerminationProtection(true)
                .enableManagedDraining(true)
                .targetCapacityPercent(100)
                .build();
        cluster.addAsgCapacityProvider(capacityProvider);
        // With a default strategy, CDK's cluster adds its capacity provider associations at every
        // synthesis of the stack: synthesize a stack once (the tests build one per synthesis).
        cluster.addDefaultCapacityProviderStrategy(List.of(CapacityProviderStrategy.builder()
                .capacityProvider(capacityProvider.getCapacityProviderName()).weight(1).build()));

        CfnOutput.Builder.create(Stack.of(this), "ContainerCapacityProviderName")
                .value(capacityProvider.getCapacityProviderName())
                .description("The container groups' EC2 capacity provider, the cluster's default strategy").build();
    }
}
