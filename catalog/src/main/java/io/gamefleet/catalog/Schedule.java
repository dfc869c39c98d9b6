package io.gamefleet.catalog;

/**
 * A function that runs on a schedule: EventBridge Scheduler in AWS, the local profile's
 * scheduler locally. {@code rate} is the setting that holds the period in seconds.
 */
public record Schedule(String name, String handlerClass, Settings.Setting rate) {
    public String functionName() {
        return Catalog.FUNCTION_PREFIX + name;
    }

    public String handlerMethod() {
        return handlerClass + "::handleRequest";
    }
}
