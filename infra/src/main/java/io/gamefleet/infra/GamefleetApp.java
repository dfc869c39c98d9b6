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
    /** The stack's name unless context {@code stackName} says otherwise. */
    public static final String DEFAULT_STACK_NAME = "Gamefleet";

    private GamefleetApp() {}

    public static void main(String[] args) {
        App app = new App();
        Object name = app.getNode().tryGetContext("stackName");
        new GamefleetStack(app, name == null ? DEFAULT_STACK_NAME : name.toString(), StackProps.builder()
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
