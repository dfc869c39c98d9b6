package io.gamefleet.catalog;

/**
 * The AWS JSON 1.1 door: every operation at one method and path, told apart by the
 * {@code X-Amz-Target} header ({@link Operation#jsonTarget()}), which an HTTP API cannot route on;
 * so one function serves them all and authorizes each caller by role itself.
 */
public record JsonDoor(String name, String method, String path, String handlerClass) {
    public String functionName() {
        return Catalog.FUNCTION_PREFIX + name;
    }

    public String handlerMethod() {
        return handlerClass + "::handleRequest";
    }
}
