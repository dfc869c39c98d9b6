package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2WebSocketEvent;
import io.gamefleet.catalog.ContainerTasks;
import io.gamefleet.catalog.Role;
import io.gamefleet.domain.Caller;
import io.gamefleet.wiring.CallerRole;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The IAM identity API Gateway verified for a request ({@code requestContext.authorizer.iam}):
 * the caller's partition and account, and, if the caller assumed a role, the role's name and
 * unique id (the part of {@code userId} before the session name) and the session.
 */
public record IamCaller(String partition, String accountId, Optional<String> roleName, Optional<String> roleUniqueId,
        Optional<String> sessionName) {
    /** An assumed-role session: arn:<partition>:sts::<account>:assumed-role/<role>/<session>. */
    private static final Pattern ROLE_SESSION =
            Pattern.compile("^arn:(aws[a-z-]*):sts::(\\d{12}):assumed-role/([^/]+)/([^/]+)$");
    /** An EC2 instance profile's session is named after its instance. */
    private static final Pattern INSTANCE_ID = Pattern.compile("^i-[0-9a-zA-Z]{17}$");
    /** An ECS task role's session is named after its task, whose instance is {@link ContainerTasks#instanceId}'s. */
    private static final Pattern TASK_ID = Pattern.compile("^[0-9a-f]{32}$");

    public static final IamCaller ANONYMOUS = new IamCaller("", "", Optional.empty(), Optional.empty(), Optional.empty());

    public static IamCaller of(APIGatewayV2HTTPEvent event) {
        var context = event.getRequestContext();
        if (context == null || context.getAuthorizer() == null || context.getAuthorizer().getIam() == null) {
            return ANONYMOUS;
        }
        var iam = context.getAuthorizer().getIam();
        return of(iam.getUserArn(), iam.getAccountId(), iam.getUserId());
    }

    /**
     * A WebSocket API's IAM-authorized {@code $connect}: the identity is {@code requestContext.identity},
     * whose {@code user} is the caller's user id.
     */
    public static IamCaller of(APIGatewayV2WebSocketEvent event) {
        var context = event.getRequestContext();
        if (context == null || context.getIdentity() == null) {
            return ANONYMOUS;
        }
        var identity = context.getIdentity();
        return of(identity.getUserArn(), identity.getAccountId(), identity.getUser());
    }

    private static IamCaller of(String userArn, String account, String userIdOrNull) {
        Matcher m = ROLE_SESSION.matcher(userArn == null ? "" : userArn);
        if (!m.matches()) {
            return new IamCaller("", account == null ? "" : account, Optional.empty(), Optional.empty(), Optional.empty());
        }
        // userId is <role unique id>:<session name> for a role session.
        String userId = userIdOrNull == null ? "" : userIdOrNull;
        Optional<String> uniqueId = userId.endsWith(":" + m.group(4))
                ? Optional.of(userId.substring(0, userId.length() - m.group(4).length() - 1)).filter(u -> !u.isEmpty())
                : Optional.empty();
        return new IamCaller(m.group(1), m.group(2), Optional.of(m.group(3)), uniqueId, Optional.of(m.group(4)));
    }

    /**
     * The deployment's caller role whose session this is: same partition, account, role name (a
     * session ARN drops the role's path) and unique id, so a role deleted and created again under
     * the same name is not taken for the first. Empty for anyone else, such as an IAM user with an
     * attached policy, or a role whose unique id the deployment does not know.
     */
    public Optional<Role> roleIn(Map<Role, CallerRole> roles) {
        return roles.entrySet().stream().filter(e -> isSessionOf(e.getValue())).map(Map.Entry::getKey).findFirst();
    }

    /** Whether this is a session of that role: same partition, account, role name and unique id. */
    public boolean isSessionOf(CallerRole role) {
        if (roleName.isEmpty() || roleUniqueId.isEmpty()) {
            return false;
        }
        String[] parts = role.arn().split(":", 6);
        return parts.length == 6 && parts[1].equals(partition) && parts[4].equals(accountId)
                && parts[5].substring(parts[5].lastIndexOf('/') + 1).equals(roleName.get())
                && roleUniqueId.get().equals(role.uniqueId());
    }

    /**
     * What the domain needs to know: a caller whose session is named after an instance (or after a
     * container group's task, which is an instance) acts for that instance only, and is that
     * instance's own process only as a session of the GAME_SERVER role (EC2 and, with containers,
     * ECS alone assume it, and name its sessions); an ADMIN session is an administrator.
     */
    public Caller domainCaller(Optional<Role> role) {
        Optional<String> instance = sessionName.filter(s -> INSTANCE_ID.matcher(s).matches())
                .or(() -> sessionName.filter(s -> TASK_ID.matcher(s).matches()).map(ContainerTasks::instanceId));
        return new Caller(instance, instance.isPresent() && role.equals(Optional.of(Role.GAME_SERVER)),
                role.equals(Optional.of(Role.ADMIN)));
    }
}
