package io.gamefleet.infra;

import java.util.ArrayList;
import java.util.List;

/**
 * What Gamefleet's instances may run with: the instance profiles a group's launch template may
 * name (the functions check them, and a Deny on ec2:RunInstances backs them), and the roles of
 * those profiles, which alone the scaling functions may pass (iam:PassRole). The stack's own
 * GameServer profile and role, plus the deployer's context keys
 * {@value DeploymentContext#INSTANCE_PROFILE_ARNS} and {@value DeploymentContext#INSTANCE_ROLE_ARNS}.
 */
record LaunchAllowance(List<String> instanceProfileArns, List<String> roleArns) {
    LaunchAllowance {
        instanceProfileArns = List.copyOf(instanceProfileArns);
        roleArns = List.copyOf(roleArns);
    }

    LaunchAllowance plus(LaunchAllowance other) {
        List<String> profiles = new ArrayList<>(instanceProfileArns);
        profiles.addAll(other.instanceProfileArns);
        List<String> roles = new ArrayList<>(roleArns);
        roles.addAll(other.roleArns);
        return new LaunchAllowance(profiles, roles);
    }
}
