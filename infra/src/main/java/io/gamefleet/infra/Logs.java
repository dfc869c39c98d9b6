package io.gamefleet.infra;

import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.constructs.Construct;

/** The log groups of functions, workflows and the API. */
final class Logs {
    private Logs() {}

    /** Named after the stack (not /aws/lambda/...) and deleted with it: a redeployment never collides. */
    static LogGroup group(Construct scope, String id, String name, RetentionDays retention) {
        return LogGroup.Builder.create(scope, id)
                .logGroupName(name)
                .retention(retention)
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();
    }
}
