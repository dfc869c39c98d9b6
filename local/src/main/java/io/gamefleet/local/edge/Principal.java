package io.gamefleet.local.edge;

import io.gamefleet.catalog.Role;
import java.util.Optional;

/**
 * A local caller: SigV4 credentials and the role whose routes it may call. A GAME_SERVER
 * principal with an InstanceId acts as an EC2 instance-profile session of that instance.
 */
public record Principal(String accessKeyId, String secretAccessKey, Role role, Optional<String> instanceId) {

    /** The caller ARN API Gateway would put in the request context for this principal. */
    String callerArn(String accountId) {
        return instanceId.map(i -> "arn:aws:sts::" + accountId + ":assumed-role/GameServer/" + i)
                .orElse("arn:aws:iam::" + accountId + ":user/" + accessKeyId);
    }
}
