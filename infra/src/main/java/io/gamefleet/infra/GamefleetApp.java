package io.gamefleet.infra;

import io.github.cdklabs.cdknag.AwsSolutionsChecks;
import io.github.cdklabs.cdknag.NagPackProps;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Aspects;
import software.amazon.awscdk.StackProps;

/**
 * The CDK app: one environment-agnostic stack, checked by cdk-nag's AwsSolutions rules (an
 * unsuppressed error fails {@code cdk synth}). Run by the CDK CLI from {@code infra/} (see
 * cdk.json); context values are read by {@link DeploymentContext}.
 */
public final class GamefleetApp {
    /** The stack's name, with the stage after it, unless context {@code stackName} says otherwise. */
    public static final String STACK_NAME_PREFIX = "Gamefleet-";

    private GamefleetApp() {}

    public static void main(String[] args) {
        App app = new App();
        Object name = app.getNode().tryGetContext("stackName");
        Object stage = app.getNode().tryGetContext(DeploymentContext.STAGE);
        String stackName = name != null ? name.toString()
                : STACK_NAME_PREFIX + (stage == null ? DeploymentContext.DEFAULT_STAGE : stage.toString());
        new GamefleetStack(app, stackName, StackProps.builder()
                .description("Gamefleet: self-hosted FleetIQ-style game server management")
                .build());
        applyChecks(app);
        app.synth();
    }

    /** AwsSolutions checks on everything in the app, with cdk.out reports of every rule's result. */
    public static void applyChecks(App app) {
        applyChecks(app, true);
    }

    /** The same checks; the tests leave out the report files. */
    static void applyChecks(App app, boolean reports) {
        Aspects.of(app).add(new AwsSolutionsChecks(NagPackProps.builder().verbose(true).reports(reports).build()));
    }
}
