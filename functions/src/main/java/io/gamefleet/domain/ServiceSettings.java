package io.gamefleet.domain;

import java.time.Duration;

/** The deployment settings the domain needs, read once from the environment at start. */
public record ServiceSettings(
        String region,
        String accountId,
        Duration claimTtl,
        Duration healthTimeout,
        Duration deletedRetention,
        Duration activationTimeout) {

    public String groupArn(String groupName) {
        return "arn:aws:gamelift:" + region + ":" + accountId + ":gameservergroup/" + groupName;
    }

    /** GameServerGroupNameOrArn: the name itself, or the name at the end of the ARN. */
    public static String groupName(String nameOrArn) {
        int slash = nameOrArn.lastIndexOf("gameservergroup/");
        return nameOrArn.startsWith("arn:") && slash >= 0
                ? nameOrArn.substring(slash + "gameservergroup/".length())
                : nameOrArn;
    }
}
