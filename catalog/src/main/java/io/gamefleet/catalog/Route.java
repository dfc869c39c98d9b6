package io.gamefleet.catalog;

import java.util.Set;

/**
 * An operation's REST route: its HTTP method and path (API Gateway syntax, {@code {Name}} for
 * path parameters), the input members that may come in the query string (all others come in the
 * path or the body), and the caller roles allowed to invoke it.
 */
public record Route(Operation operation, String method, String path, Set<String> queryMembers, Set<Role> roles) {
    public Route {
        queryMembers = Set.copyOf(queryMembers);
        roles = Set.copyOf(roles);
    }

    public String functionName() {
        return operation.functionName();
    }

    public String handlerClass() {
        return operation.handlerClass();
    }

    public String handlerMethod() {
        return operation.handlerMethod();
    }
}
