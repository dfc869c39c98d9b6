package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * The container groups' EC2 capacity (ContainerInstances, context containerInstanceTypes): the
 * Auto Scaling group, its launch template's hardening, the instances' role and security group, the
 * capacity provider and the cluster's default strategy, the context's refusals, and none of it
 * without the key.
 */
class ContainerInstancesStackTest extends SynthesizedStack {
    static final String ECS_CONFIG = " >> /etc/ecs/ecs.config";

    static Map<String, Object> withContainerInstances() {
        return with(DeploymentContext.CONTAINER_INSTANCE_TYPES, "c6i.large, c5.large");
    }

    private static Map<String, Object> with(String key, String value) {
        Map<String, Object> context = new HashMap<>(ContainerGroupsStackTest.withContainers());
        context.put(key, value);
        return context;
    }

    /** The EC2 capacity with these keys besides. */
    private static Map<String, Object> withInstances(Map<String, String> keys) {
        Map<String, Object> context = new HashMap<>(withContainerInstances());
        context.putAll(keys);
        return context;
    }

    @Override
    Map<String, Object> context() {
        return withContainerInstances();
    }

    private String groupId() {
        return onlyResourceOf("AWS::AutoScaling::AutoScalingGroup");
    }

    private String launchTemplateId() {
        return onlyResourceOf("AWS::EC2::LaunchTemplate");
    }

    private Map<String, Object> launchTemplateData() {
        return map(props(resources.get(launchTemplateId())).get("LaunchTemplateData"));
    }

    private String capacityProviderId() {
        return onlyResourceOf("AWS::ECS::CapacityProvider");
    }

    private String instanceRoleId() {
        return idWhere("AWS::IAM::Role", "Description",
                "Gamefleet container instances: the ECS agent serves the stage's cluster, nothing else");
    }

    private String instanceSecurityGroupId() {
        return ofType("AWS::EC2::SecurityGroup").entrySet().stream()
                .filter(e -> String.valueOf(props(e.getValue()).get("GroupDescription")).startsWith("Gamefleet container instances"))
                .map(Map.Entry::getKey).findFirst().orElseThrow();
    }

    @Test
    void theGroupRunsTheTypesInTheContainerSubnetsSpotAboveOneOnDemandInstance() {
        Map<String, Object> group = props(resources.get(groupId()));
        assertThat(group).containsEntry("MinSize", "0").containsEntry("MaxSize", "10")
                .containsEntry("NewInstancesProtectedFromScaleIn", true)
                .containsEntry("VPCZoneIdentifier", List.of("subnet-0123456789abcdef0", "subnet-0fedcba9876543210"));
        // Outside the stage's scaling group prefix: no Gamefleet function may manage it as a group's.
        assertThat((String) group.get("AutoScalingGroupName")).isEqualTo("gamefleet-prod-container-instances")
                .doesNotStartWith(STAGE.scalingGroupPrefix());
        Map<String, Object> policy = map(group.get("MixedInstancesPolicy"));
        assertThat(map(policy.get("InstancesDistribution"))).isEqualTo(Map.of("OnDemandBaseCapacity", 1,
                "OnDemandPercentageAboveBaseCapacity", 0, "OnDemandAllocationStrategy", "prioritized",
                "SpotAllocationStrategy", "price-capacity-optimized"));
        Map<String, Object> template = map(policy.get("LaunchTemplate"));
        assertThat(listOf(template.get("Overrides"))).containsExactly(Map.of("InstanceType", "c6i.large"),
                Map.of("InstanceType", "c5.large"));
        assertThat(map(template.get("LaunchTemplateSpecification")).get("LaunchTemplateId")).isEqualTo(ref(launchTemplateId()));
    }

    @Test
    void theLaunchTemplateRequiresImdsv2WithinOneHopAndEncryptsItsOnlyVolumeAndHasNoKey() {
        Map<String, Object> data = launchTemplateData();
        assertThat(data.get("MetadataOptions")).isEqualTo(Map.of("HttpEndpoint", "enabled", "HttpTokens", "required",
                "HttpPutResponseHopLimit", 1));
        assertThat(listOf(data.get("BlockDeviceMappings"))).containsExactly(Map.of("DeviceName", "/dev/xvda",
                "Ebs", Map.of("Encrypted", true, "VolumeSize", 30, "VolumeType", "gp3", "DeleteOnTermination", true)));
        assertThat(data).doesNotContainKeys("KeyName", "InstanceType", "NetworkInterfaces");
        assertThat(listOf(data.get("SecurityGroupIds")))
                .containsExactly(Map.of("Fn::GetAtt", List.of(instanceSecurityGroupId(), "GroupId")));
        // The x86_64 ECS-optimized Amazon Linux 2023 AMI, resolved at deployment: no lookup at synthesis.
        String parameter = (String) map(data.get("ImageId")).get("Ref");
        assertThat(map(map(template.toJSON().get("Parameters")).get(parameter)))
                .containsEntry("Type", "AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>")
                .containsEntry("Default", "/aws/service/ecs/optimized-ami/amazon-linux-2023/recommended/image_id");
    }

    @Test
    void theUserDataJoinsTheClusterAndKeepsTasksFromTheMetadataAndTheHost() {
        Map<String, Object> base64 = map(launchTemplateData().get("UserData"));
        List<String> lines = Arrays.asList(render(base64.get("Fn::Base64")).split("\n"));
        assertThat(lines).containsExactly("#!/bin/bash",
                "echo ECS_AWSVPC_BLOCK_IMDS=true" + ECS_CONFIG,
                "echo ECS_DISABLE_PRIVILEGED=true" + ECS_CONFIG,
                "echo ECS_ENABLE_AWSLOGS_EXECUTIONROLE_OVERRIDE=true" + ECS_CONFIG,
                "echo ECS_ENABLE_SPOT_INSTANCE_DRAINING=true" + ECS_CONFIG,
                "echo ECS_CLUSTER=<" + onlyResourceOf("AWS::ECS::Cluster") + ">" + ECS_CONFIG);
    }

    @Test
    void theInstancesSecurityGroupAdmitsNothingAndTheTasksKeepTheirs() {
        Map<String, Object> group = props(resources.get(instanceSecurityGroupId()));
        assertThat(group).containsEntry("VpcId", "vpc-0123456789abcdef0").doesNotContainKey("SecurityGroupIngress");
        template.resourceCountIs("AWS::EC2::SecurityGroupIngress", 0);
        assertThat(ofType("AWS::EC2::SecurityGroup")).hasSize(2);
    }

    @Test
    void theInstanceRoleMayOnlyServeTheClusterAsItsAgent() {
        Map<String, Object> role = props(resources.get(instanceRoleId()));
        assertThat(listOf(map(role.get("AssumeRolePolicyDocument")).get("Statement"))).containsExactly(Map.of(
                "Action", "sts:AssumeRole", "Effect", "Allow", "Principal", Map.of("Service", "ec2.amazonaws.com")));
        assertThat(role).doesNotContainKeys("ManagedPolicyArns", "Policies");
        Map<String, Object> cluster = Map.of("Fn::GetAtt", List.of(onlyResourceOf("AWS::ECS::Cluster"), "Arn"));
        // No logs, ECR or other grant CDK's cluster would add: the tasks' execution role pulls and logs.
        assertThat(statementsOfRole(instanceRoleId())).containsExactly(
                Map.of("Sid", "ServeTheCluster", "Effect", "Allow", "Resource", cluster, "Action", List.of(
                        "ecs:DeregisterContainerInstance", "ecs:RegisterContainerInstance",
                        "ecs:SubmitAttachmentStateChanges", "ecs:SubmitContainerStateChange", "ecs:SubmitTaskStateChange")),
                Map.of("Sid", "ServeOwnContainerInstance", "Effect", "Allow", "Resource", "*",
                        "Action", List.of("ecs:Poll", "ecs:StartTelemetrySession", "ecs:UpdateContainerInstancesState"),
                        "Condition", Map.of("ArnEquals", Map.of("ecs:cluster", cluster))),
                Map.of("Sid", "DiscoverPollEndpoint", "Effect", "Allow", "Resource", "*",
                        "Action", "ecs:DiscoverPollEndpoint"));
        assertThat(ofType("AWS::IAM::ManagedPolicy").values().stream().map(p -> listOf(props(p).get("Roles"))))
                .noneMatch(roles -> roles.contains(ref(instanceRoleId())));
        String profile = getAttId(map(launchTemplateData().get("IamInstanceProfile")).get("Arn"));
        assertThat(props(resources.get(profile))).isEqualTo(Map.of("Roles", List.of(ref(instanceRoleId()))));
    }

    @Test
    void theCapacityProviderScalesTheGroupAndProtectsAndDrainsItsInstances() {
        assertThat(props(resources.get(capacityProviderId()))).isEqualTo(Map.of(
                "Name", "gamefleet-prod-container-instances",
                "AutoScalingGroupProvider", Map.of("AutoScalingGroupArn", ref(groupId()),
                        "ManagedScaling", Map.of("Status", "ENABLED", "TargetCapacity", 100),
                        "ManagedTerminationProtection", "ENABLED", "ManagedDraining", "ENABLED")));
    }

    /** A service created without a strategy (a group of "Capacity": "EC2") gets the cluster's default. */
    @Test
    void theClustersDefaultStrategyIsTheCapacityProviderBesideFargates() {
        Map<String, Object> associations = props(resources.get(onlyResourceOf("AWS::ECS::ClusterCapacityProviderAssociations")));
        assertThat(listOf(associations.get("CapacityProviders")))
                .containsExactlyInAnyOrder("FARGATE", "FARGATE_SPOT", ref(capacityProviderId()));
        assertThat(listOf(associations.get("DefaultCapacityProviderStrategy")))
                .containsExactly(Map.of("CapacityProvider", ref(capacityProviderId()), "Weight", 1));
        assertThat(map(template.toJSON().get("Outputs")).get("ContainerCapacityProviderName"))
                .isEqualTo(Map.of("Value", ref(capacityProviderId()),
                        "Description", "The container groups' EC2 capacity provider, the cluster's default strategy"));
    }

    @Test
    void theSizesAndTheOnDemandBaseComeFromContext() {
        Map<String, Object> group = props(Template.fromStack(stack(withInstances(Map.of(
                DeploymentContext.CONTAINER_INSTANCES_MIN, "1", DeploymentContext.CONTAINER_INSTANCES_MAX, "4",
                DeploymentContext.CONTAINER_INSTANCES_ON_DEMAND_BASE, "0"))))
                .findResources("AWS::AutoScaling::AutoScalingGroup").values().iterator().next());
        assertThat(group).containsEntry("MinSize", "1").containsEntry("MaxSize", "4");
        assertThat(map(map(group.get("MixedInstancesPolicy")).get("InstancesDistribution")))
                .containsEntry("OnDemandBaseCapacity", 0);
    }

    @Test
    void contextThatCannotWorkFailsSynthesisNamingItsKey() {
        assertThatThrownBy(() -> stack(with(DeploymentContext.CONTAINER_INSTANCE_TYPES, "c6i.large,c7g.large")))
                .hasMessageContaining(DeploymentContext.CONTAINER_INSTANCE_TYPES).hasMessageContaining("x86_64");
        assertThatThrownBy(() -> stack(with(DeploymentContext.CONTAINER_INSTANCE_TYPES, "c6i large")))
                .hasMessageContaining(DeploymentContext.CONTAINER_INSTANCE_TYPES);
        assertThatThrownBy(() -> stack(withInstances(Map.of(DeploymentContext.CONTAINER_INSTANCES_MIN, "3",
                DeploymentContext.CONTAINER_INSTANCES_MAX, "2")))).hasMessageContaining(DeploymentContext.CONTAINER_INSTANCES_MIN);
        assertThatThrownBy(() -> stack(withInstances(Map.of(DeploymentContext.CONTAINER_INSTANCES_ON_DEMAND_BASE, "3",
                DeploymentContext.CONTAINER_INSTANCES_MAX, "2"))))
                .hasMessageContaining(DeploymentContext.CONTAINER_INSTANCES_ON_DEMAND_BASE);
        assertThatThrownBy(() -> stack(withInstances(Map.of(DeploymentContext.CONTAINER_INSTANCES_MAX, "0"))))
                .hasMessageContaining(DeploymentContext.CONTAINER_INSTANCES_MAX);
        assertThatThrownBy(() -> stack(Map.of(DeploymentContext.CONTAINER_INSTANCE_TYPES, "c6i.large")))
                .hasMessageContaining(DeploymentContext.CONTAINER_INSTANCE_TYPES).hasMessageContaining(DeploymentContext.CONTAINERS);
    }

    @Test
    void withoutTheKeyTheClusterHasFargateAloneAndNoDefaultStrategy() {
        Template fargate = Template.fromStack(stack(ContainerGroupsStackTest.withContainers()));
        for (String type : List.of("AWS::AutoScaling::AutoScalingGroup", "AWS::EC2::LaunchTemplate", "AWS::ECS::CapacityProvider")) {
            fargate.resourceCountIs(type, 0);
        }
        Map<String, Object> associations = props(cast(fargate.findResources("AWS::ECS::ClusterCapacityProviderAssociations")
                .values().iterator().next()));
        assertThat(listOf(associations.get("DefaultCapacityProviderStrategy"))).isEmpty();
        assertThat(String.valueOf(fargate.toJSON())).doesNotContain("Gamefleet container instances",
                "ContainerCapacityProviderName", "ecs-optimized-ami");
    }
}
