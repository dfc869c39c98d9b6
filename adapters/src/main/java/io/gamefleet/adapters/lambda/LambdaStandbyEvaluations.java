package io.gamefleet.adapters.lambda;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.catalog.Triggers;
import io.gamefleet.domain.StandbyEvaluations;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvocationType;

/**
 * Standby evaluations as asynchronous invocations of the balancer's function ({@link Triggers#BALANCER},
 * through its alias) with the group's name ({@link Triggers#STANDBY_GROUP_MEMBER}): Lambda queues the
 * event and answers at once, so the claim waits only for that answer.
 */
public final class LambdaStandbyEvaluations implements StandbyEvaluations {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final LambdaClient lambda;
    private final String functionArn;

    public LambdaStandbyEvaluations(LambdaClient lambda, String functionArn) {
        this.lambda = lambda;
        this.functionArn = functionArn;
    }

    @Override
    public void requested(String group) {
        String event = JSON.createObjectNode().put(Triggers.STANDBY_GROUP_MEMBER, group).toString();
        try {
            lambda.invoke(r -> r.functionName(functionArn).invocationType(InvocationType.EVENT)
                    .payload(SdkBytes.fromUtf8String(event)));
        } catch (SdkException e) {
            throw new IllegalStateException("Lambda did not take the evaluation of group " + group + ": " + e.getMessage(), e);
        }
    }
}
