package io.gamefleet.infra;

import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.apigateway.AccessLogFormat;
import software.amazon.awscdk.services.apigatewayv2.IAccessLogDestination;
import software.amazon.awscdk.services.apigatewayv2.IAccessLogSettings;
import software.amazon.awscdk.services.apigatewayv2.LogGroupLogDestination;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.constructs.Construct;

/** The log groups of functions, workflows and the APIs. */
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

    /** An API stage's access logs: one line in {@code format} per request, into {@code logs}. */
    static IAccessLogSettings accessLogSettings(LogGroup logs, String format) {
        LogGroupLogDestination destination = new LogGroupLogDestination(logs);
        return new IAccessLogSettings() {
            @Override
            public IAccessLogDestination getDestination() {
                return destination;
            }

            @Override
            public AccessLogFormat getFormat() {
                return AccessLogFormat.custom(format);
            }
        };
    }
}
