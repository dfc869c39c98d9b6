package io.gamefleet.infra;

import software.amazon.awscdk.App;
import software.amazon.awscdk.StackProps;

/**
 * The CDK app: one environment-agnostic stack. Run by the CDK CLI from {@code infra/} (see
 * cdk.json); context values are documented on {@link GamefleetStack}.
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
        app.synth();
    }
}
