package io.gamefleet.infra;

import io.gamefleet.catalog.FunctionAccess;
import io.gamefleet.catalog.Catalog;
import io.gamefleet.catalog.FunctionAccess.Scaling;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.PolicyStatement;

/**
 * The Auto Scaling and EC2 permissions of FleetIQ's model, scoped to the groups this stage of
 * Gamefleet manages: every action that supports resource-level permissions names the ARNs of the
 * Auto Scaling groups named with the stage's prefix ({@link Catalog#scalingGroupPrefix}; the
 * groups it created under {@link Catalog#formerScalingGroupPrefix} may still be changed and deleted,
 * not created), and requires
 * the managed tag ({@link Catalog#MANAGED_TAG_KEY}, which the compute adapter puts on every group it
 * creates and which a caller cannot replace) and the stage tag ({@link Catalog#STAGE_TAG_KEY}) with
 * this stage's value: on the request for CreateAutoScalingGroup, on the resource for the rest. The
 * former name prefix alone would not do: {@code gamefleet-prod-*} also matches stage prod-eu's groups.
 * The remaining wildcards are actions without resource-level permissions
 * (Describe*), or launches from the customer's own launch templates (see {@link #launch}).
 */
final class ScalingPermissions {
    static final String RESOURCE_TAG = "aws:ResourceTag/" + Catalog.MANAGED_TAG_KEY;
    static final String REQUEST_TAG = "aws:RequestTag/" + Catalog.MANAGED_TAG_KEY;
    static final String RESOURCE_STAGE_TAG = "aws:ResourceTag/" + Catalog.STAGE_TAG_KEY;
    static final String REQUEST_STAGE_TAG = "aws:RequestTag/" + Catalog.STAGE_TAG_KEY;

    /** Actions Gamefleet may call on an existing managed group, per capability. */
    static final Map<Scaling, List<String>> GROUP_ACTIONS = Map.of(
            Scaling.CREATE, List.of("autoscaling:PutScalingPolicy"),
            // SetInstanceProtection: a SAFE_DELETE lifts protection once no game is left.
            Scaling.DELETE, List.of("autoscaling:UpdateAutoScalingGroup", "autoscaling:DeleteAutoScalingGroup",
                    "autoscaling:SetInstanceProtection"),
            Scaling.BALANCE, List.of("autoscaling:UpdateAutoScalingGroup", "autoscaling:SetDesiredCapacity",
                    "autoscaling:SetInstanceProtection", "autoscaling:TerminateInstanceInAutoScalingGroup",
                    "autoscaling:PutScalingPolicy"),
            Scaling.REPLACE, List.of("autoscaling:SetDesiredCapacity", "autoscaling:TerminateInstanceInAutoScalingGroup"));

    private ScalingPermissions() {}

    /** {@code stage}: the stage, whose Auto Scaling groups' names and stage tag IAM scopes by. */
    static List<PolicyStatement> statements(Stack stack, Set<Scaling> scaling, String stage, LaunchAllowance launches) {
        List<PolicyStatement> statements = new ArrayList<>();
        if (scaling.contains(Scaling.DESCRIBE)) {
            statements.add(statement("DescribeScalingGroups", List.of("autoscaling:DescribeAutoScalingGroups"),
                    List.of("*"), Map.of()));
        }
        if (scaling.contains(Scaling.DESCRIBE_INSTANCES)) {
            statements.add(statement("DescribeInstances", List.of("ec2:DescribeInstances"), List.of("*"), Map.of()));
        }
        if (scaling.contains(Scaling.READ_LAUNCH_TEMPLATES)) {
            statements.add(statement("ReadLaunchTemplates", List.of("ec2:DescribeLaunchTemplateVersions"),
                    List.of("*"), Map.of()));
        }
        if (scaling.contains(Scaling.CREATE)) {
            // The tag must be in the request: Gamefleet can create only groups that carry its tag.
            statements.add(statement("CreateManagedScalingGroups", List.of("autoscaling:CreateAutoScalingGroup"),
                    List.of(groupArns(stack, Catalog.scalingGroupPrefix(stage))), Map.of("Null", Map.of(REQUEST_TAG, "false"),
                            "StringEquals", Map.of(REQUEST_STAGE_TAG, stage))));
            // The first group of an account creates Auto Scaling's service-linked role.
            statements.add(statement("CreateAutoScalingServiceLinkedRole", List.of("iam:CreateServiceLinkedRole"),
                    List.of(Stack.of(stack).formatArn(ArnComponents.builder()
                            .service("iam").region("").resource("role")
                            .resourceName("aws-service-role/autoscaling.amazonaws.com/AWSServiceRoleForAutoScaling")
                            .arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build())),
                    Map.of("StringEquals", Map.of("iam:AWSServiceName", "autoscaling.amazonaws.com"))));
        }
        List<String> groupActions = new ArrayList<>();
        for (Scaling s : Scaling.values()) {
            for (String action : GROUP_ACTIONS.getOrDefault(s, List.of())) {
                if (scaling.contains(s) && !groupActions.contains(action)) {
                    groupActions.add(action);
                }
            }
        }
        if (!groupActions.isEmpty()) {
            statements.add(statement("ManageManagedScalingGroups", groupActions, managedGroupArns(stack, stage),
                    Map.of("Null", Map.of(RESOURCE_TAG, "false"), "StringEquals", Map.of(RESOURCE_STAGE_TAG, stage))));
        }
        if (scaling.contains(Scaling.CREATE) || scaling.contains(Scaling.BALANCE)) {
            statements.addAll(launch(stack, launches));
        }
        return statements;
    }

    /**
     * Creating a group from a launch template, or changing its mixed instances policy, is checked
     * against the caller as if it launched the instances itself (ec2:RunInstances, tags on launch,
     * the template, and iam:PassRole for the template's instance profile). The templates and their
     * subnets are the customer's, named in CreateGameServerGroup, so ec2:RunInstances stays on '*'
     * (FleetIQ's own managed policy has the same); what the instances run with does not: iam:PassRole
     * names only the allowed roles, and an explicit Deny refuses launching an instance with any
     * instance profile but the allowed ones (a template without one passes no role).
     */
    private static List<PolicyStatement> launch(Stack stack, LaunchAllowance launches) {
        Map<String, Object> passRoleCondition = new LinkedHashMap<>();
        passRoleCondition.put("StringEquals", Map.of("iam:PassedToService",
                List.of("ec2.amazonaws.com", "autoscaling.amazonaws.com")));
        Map<String, Object> otherProfile = new LinkedHashMap<>();
        otherProfile.put("ArnNotEquals", Map.of(INSTANCE_PROFILE_KEY, launches.instanceProfileArns()));
        otherProfile.put("Null", Map.of(INSTANCE_PROFILE_KEY, "false"));
        PolicyStatement denyOtherProfiles = PolicyStatement.Builder.create().sid("LaunchOnlyAllowedInstanceProfiles")
                .effect(Effect.DENY).actions(List.of("ec2:RunInstances")).resources(List.of(instanceArns(stack)))
                .conditions(otherProfile).build();
        return List.of(
                statement("LaunchFromLaunchTemplates",
                        List.of("ec2:RunInstances", "ec2:DescribeLaunchTemplateVersions"), List.of("*"), Map.of()),
                denyOtherProfiles,
                statement("TagInstancesOnLaunch", List.of("ec2:CreateTags"), List.of("*"),
                        Map.of("StringEquals", Map.of("ec2:CreateAction", "RunInstances"))),
                statement("PassInstanceRoles", List.of("iam:PassRole"), launches.roleArns(), passRoleCondition));
    }

    /** The condition key of the instance profile an instance is launched with. */
    static final String INSTANCE_PROFILE_KEY = "ec2:InstanceProfile";

    /** Every instance of this account and region, the resource ec2:InstanceProfile is evaluated on. */
    static String instanceArns(Stack stack) {
        return Stack.of(stack).formatArn(ArnComponents.builder()
                .service("ec2").resource("instance").resourceName("*")
                .arnFormat(ArnFormat.SLASH_RESOURCE_NAME).build());
    }

    /** This stage's Auto Scaling groups in this account and region (the group id part of the ARN is random). */
    /** The stage's Auto Scaling groups that may be changed: those of its prefix, and those of its former one. */
    static List<String> managedGroupArns(Stack stack, String stage) {
        return List.of(groupArns(stack, Catalog.scalingGroupPrefix(stage)),
                groupArns(stack, Catalog.formerScalingGroupPrefix(stage)));
    }

    static String groupArns(Stack stack, String scalingGroups) {
        return Stack.of(stack).formatArn(ArnComponents.builder()
                .service("autoscaling").resource("autoScalingGroup")
                .resourceName("*:autoScalingGroupName/" + scalingGroups + "*")
                .arnFormat(ArnFormat.COLON_RESOURCE_NAME).build());
    }

    /** An Allow statement, with its conditions where it has any. */
    static PolicyStatement statement(String sid, List<String> actions, List<String> resources,
            Map<String, ?> conditions) {
        PolicyStatement.Builder b = PolicyStatement.Builder.create().sid(sid).effect(Effect.ALLOW)
                .actions(actions).resources(resources);
        if (!conditions.isEmpty()) {
            b.conditions(Map.copyOf(conditions));
        }
        return b.build();
    }
}
