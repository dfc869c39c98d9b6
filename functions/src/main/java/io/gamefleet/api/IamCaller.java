package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.gamefleet.domain.Caller;
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
        String userArn = context.getAuthorizer().getIam().getUserArn();
        Matcher m = ROLE_SESSION.matcher(userArn == null ? "" : userArn);
        if (!m.matches()) {
            String account = context.getAuthorizer().getIam().getAccountId();
            return new IamCaller(account == null ? "" : account, Optional.empty(), Optional.empty());
        }
        return new IamCaller(m.group(1), Optional.of(m.group(2)), Optional.of(m.group(3)));
    }

    /** What the domain needs to know: a caller on an EC2 instance profile acts for that instance only. */
    public Caller domainCaller() {
        return sessionName.filter(s -> INSTANCE_ID.matcher(s).matches()).map(Caller::onInstance).orElse(Caller.UNBOUND);
    }
}
