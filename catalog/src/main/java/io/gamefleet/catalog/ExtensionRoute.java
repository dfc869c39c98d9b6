package io.gamefleet.catalog;

import java.util.Set;

/**
 * A route of Gamefleet's own beside FleetIQ's operations (docs/api.md, "Gamefleet extensions"): it
 * is in no FleetIQ model, so it has its REST route alone (no CBOR path, no JSON door target), and
 * FleetIQ's operations and shapes stay as FleetIQ has them. Its path parameters are held to the
 * FleetIQ shapes of the same names, and so are the query parameters it takes ({@code
 * queryMembers}, none for most). One function each, named after it, as an operation's is.
 */
public record ExtensionRoute(String name, String method, String path, Set<Role> roles, Set<String> queryMembers) {
    private static final String HANDLERS = "io.gamefleet.api.";

    public ExtensionRoute {
        roles = Set.copyOf(roles);
        queryMembers = Set.copyOf(queryMembers);
    }

    /** A route that takes no query parameter. */
    public ExtensionRoute(String name, String method, String path, Set<Role> roles) {
        this(name, method, path, roles, Set.of());
    }

    public String functionName() {
        return Catalog.FUNCTION_PREFIX + name;
    }

    public String handlerClass() {
        return HANDLERS + name + "Handler";
    }

    public String handlerMethod() {
        return handlerClass() + "::handleRequest";
    }

    /** As API Gateway keys its routes: {@code <method> <path>}. */
    public String routeKey() {
        return method + " " + path;
    }
}
