package io.gamefleet.catalog;

import java.util.Set;

/**
 * An operation's REST route: its HTTP method and path (API Gateway syntax, {@code {Name}} for
 * path parameters) and the caller roles allowed to invoke it.
 */
public record Route(Operation operation, String method, String path, Set<Role> roles) {

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
