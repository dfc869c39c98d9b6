package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2WebSocketEvent;
import io.gamefleet.catalog.Role;
import io.gamefleet.domain.Caller;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The IAM identity API Gateway verified for a request ({@code requestContext.authorizer.iam}):
 * the caller's ARN, and from it the role session, if the caller assumed a role.
 */
public record IamCaller(String accountId, Optional<String> roleName, Optional<String> sessionName) {
    /** An assumed-role session: arn:aws:sts::<account>:assumed-role/<role>/<session>. */
    private static final Pattern ROLE_SESSION =
            Pattern.compile("^arn:aws[a-z-]*:sts::(\\d{12}):assumed-role/([^/]+)/([^/]+)$");
    /** An EC2 instance profile's session is named after its instance. */
    private static final Pattern INSTANCE_ID = Pattern.compile("^i-[0-9a-zA-Z]{17}$");

    public static final IamCaller ANONYMOUS = new IamCaller("", Optional.empty(), Optional.empty());

    public static IamCaller of(APIGatewayV2HTTPEvent event) {
        var context = event.getRequestContext();
        if (context == null || context.getAuthorizer() == null || context.getAuthorizer().getIam() == null) {
            return ANONYMOUS;
        }
        return of(context.getAuthorizer().getIam().getUserArn(), context.getAuthorizer().getIam().getAccountId());
    }

    /** A WebSocket API's IAM-authorized {@code $connect}: the identity is {@code requestContext.identity}. */
    public static IamCaller of(APIGatewayV2WebSocketEvent event) {
        var context = event.getRequestContext();
        if (context == null || context.getIdentity() == null) {
            return ANONYMOUS;
        }
        return of(context.getIdentity().getUserArn(), context.getIdentity().getAccountId());
    }

    private static IamCaller of(String userArn, String account) {
        Matcher m = ROLE_SESSION.matcher(userArn == null ? "" : userArn);
        if (!m.matches()) {
            return new IamCaller(account == null ? "" : account, Optional.empty(), Optional.empty());
        }
        return new IamCaller(m.group(1), Optional.of(m.group(2)), Optional.of(m.group(3)));
    }

    /**
     * The deployment's caller role whose session this is: same account and role name (a session
     * ARN drops the role's path). Empty for anyone else, such as an IAM user with an attached policy.
     */
    public Optional<Role> roleIn(Map<Role, String> roleArns) {
        if (roleName.isEmpty()) {
            return Optional.empty();
        }
        for (Map.Entry<Role, String> e : roleArns.entrySet()) {
            String[] parts = e.getValue().split(":", 6);
            if (parts.length == 6 && parts[4].equals(accountId)
                    && parts[5].substring(parts[5].lastIndexOf('/') + 1).equals(roleName.get())) {
                return Optional.of(e.getKey());
            }
        }
        return Optional.empty();
    }

    /**
     * What the domain needs to know: a caller whose session is named after an instance acts for
     * that instance only, and is that instance's own process only as a session of the GAME_SERVER
     * role (EC2 alone assumes it, and names its sessions); an ADMIN session is an administrator.
     */
    public Caller domainCaller(Optional<Role> role) {
        Optional<String> instance = sessionName.filter(s -> INSTANCE_ID.matcher(s).matches());
        return new Caller(instance, instance.isPresent() && role.equals(Optional.of(Role.GAME_SERVER)),
                role.equals(Optional.of(Role.ADMIN)));
    }
}
