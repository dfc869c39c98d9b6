package io.gamefleet.catalog;

/**
 * A Lambda function that runs one Task state of a workflow. {@code placeholder} is the
 * {@code ${...}} name its ARN takes in the ASL file (CDK definitionSubstitutions; the local
 * profile substitutes the same names).
 */
public record WorkflowStep(String name, String placeholder, String handlerClass) {
    public String functionName() {
        return Catalog.FUNCTION_PREFIX + name;
    }

    public String handlerMethod() {
        return handlerClass + "::handleRequest";
    }
}
