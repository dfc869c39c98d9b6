package io.gamefleet.catalog;

/**
 * A function that EventBridge invokes for the events matching {@code pattern} (EventBridge
 * event-pattern JSON). The local profile routes events it receives by the same pattern.
 */
public record EventRule(String name, String pattern, String handlerClass) {
    public String functionName() {
        return Catalog.FUNCTION_PREFIX + name;
    }

    public String handlerMethod() {
        return handlerClass + "::handleRequest";
    }
}
