package io.gamefleet.infra;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The deployer's choices for container groups ({@link GameServerContainers}), checked as they are
 * read: each refusal names its context key.
 *
 * @param agentImage the Gamefleet agent's image in ECR, which every task runs as its sidecar
 * @param vpcId the VPC of the tasks' security group
 * @param subnets the subnets a group's tasks run in when its request names none
 * @param gamePorts the ports players reach the game servers on (TCP and UDP)
 */
record ContainerOptions(String agentImage, String vpcId, List<String> subnets, Ports gamePorts) {
    /** {@code <account>.dkr.ecr.<region>.amazonaws.com[.cn]/<repository>(:<tag>|@sha256:<digest>)}. */
    private static final Pattern ECR_IMAGE = Pattern.compile("^(\\d{12})\\.dkr\\.ecr\\.([a-z]{2}(?:-[a-z]+)+-\\d)"
            + "\\.amazonaws\\.com(?:\\.cn)?/((?:[a-z0-9]+(?:[._-][a-z0-9]+)*/)*[a-z0-9]+(?:[._-][a-z0-9]+)*)"
            + "(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}|@sha256:[0-9a-f]{64})$");
    private static final Pattern VPC_ID = Pattern.compile("^vpc-[0-9a-f]{8,17}$");
    private static final Pattern SUBNET_ID = Pattern.compile("^subnet-[0-9a-f]{8,17}$");
    private static final Pattern PORTS = Pattern.compile("^(\\d{1,5})(?:-(\\d{1,5}))?$");

    /** A port range, {@code from} to {@code to} inclusive. */
    record Ports(int from, int to) {}

    ContainerOptions {
        if (agentImage.isEmpty()) {
            throw new IllegalArgumentException("context " + DeploymentContext.AGENT_IMAGE + " is required with "
                    + DeploymentContext.CONTAINERS + "=true: the agent's image in ECR, such as "
                    + "123456789012.dkr.ecr.eu-west-1.amazonaws.com/gamefleet-agent:1.0");
        }
        if (!ECR_IMAGE.matcher(agentImage).matches()) {
            throw new IllegalArgumentException("context " + DeploymentContext.AGENT_IMAGE + " must be an ECR image URI "
                    + "(<account>.dkr.ecr.<region>.amazonaws.com/<repository>:<tag> or @sha256:<digest>), not " + agentImage);
        }
        if (!VPC_ID.matcher(vpcId).matches()) {
            throw new IllegalArgumentException("context " + DeploymentContext.CONTAINER_VPC_ID + " is required with "
                    + DeploymentContext.CONTAINERS + "=true: the VPC id (vpc-...) of the tasks' subnets, not \"" + vpcId
                    + "\"");
        }
        if (subnets.isEmpty() || subnets.stream().anyMatch(s -> !SUBNET_ID.matcher(s).matches())) {
            throw new IllegalArgumentException("context " + DeploymentContext.CONTAINER_SUBNETS + " is required with "
                    + DeploymentContext.CONTAINERS + "=true: subnet ids (subnet-...), comma-separated, not " + subnets);
        }
        subnets = List.copyOf(subnets);
    }

    /** {@code 7777} or {@code 7777-7780}: 1 to 65535, the first not above the last. */
    static Ports ports(String value) {
        Matcher m = PORTS.matcher(value);
        if (m.matches()) {
            int from = Integer.parseInt(m.group(1));
            int to = m.group(2) == null ? from : Integer.parseInt(m.group(2));
            if (from >= 1 && from <= to && to <= 65535) {
                return new Ports(from, to);
            }
        }
        throw new IllegalArgumentException("context " + DeploymentContext.CONTAINER_GAME_PORTS
                + " must be a port or a range of ports (1 to 65535) such as 7777-7780, not " + value);
    }

    /** The agent image's account. */
    String agentImageAccount() {
        return imagePart(1);
    }

    /** The agent image's region. */
    String agentImageRegion() {
        return imagePart(2);
    }

    /** The agent image's repository name. */
    String agentImageRepository() {
        return imagePart(3);
    }

    private String imagePart(int group) {
        Matcher m = ECR_IMAGE.matcher(agentImage);
        if (!m.matches()) {
            throw new IllegalStateException(agentImage);
        }
        return m.group(group);
    }
}
