package io.gamefleet.catalog;

import java.util.Set;

/**
 * One API operation: its HTTP method and path (API Gateway syntax, {@code {Name}} for path
 * parameters), the handler class that serves it, and the caller roles allowed to invoke it.
 */
public record Route(String operation, String method, String path, String handlerClass, Set<Role> roles) {

    /** The Lambda function name of this route's handler, as deployed and as served locally. */
    public String functionName() {
        return Catalog.FUNCTION_PREFIX + operation;
    }

    public String handlerMethod() {
        return handlerClass + "::handleRequest";
    }
}
