package io.gamefleet.local.edge;

import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.catalog.Role;
import java.util.Optional;

/**
 * A local caller: SigV4 credentials and the role whose routes it may call. Each acts as a session
 * of its role's IAM role ({@link LocalAccount#roleArn}), as callers of a deployment do; a
 * GAME_SERVER principal with an InstanceId as an EC2 instance-profile session of that instance.
 */
public record Principal(String accessKeyId, String secretAccessKey, Role role, Optional<String> instanceId) {

    /** The caller ARN API Gateway would put in the request context for this principal. */
    String callerArn() {
        return "arn:aws:sts::" + LocalAccount.ACCOUNT_ID + ":assumed-role/" + LocalAccount.roleName(role) + "/"
                + sessionName();
    }

    /** The caller's userId as API Gateway reports it: the role's unique id and the session's name. */
    String userId() {
        return LocalAccount.roleId(role) + ":" + sessionName();
    }

    private String sessionName() {
        return instanceId.orElse(accessKeyId);
    }
}
