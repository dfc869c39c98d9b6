package io.gamefleet.adapters.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.catalog.Triggers;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvocationType;
import software.amazon.awssdk.services.lambda.model.InvokeRequest;

/** The request a standby evaluation sends: an Event invocation of the function, the group named in its payload. */
class LambdaStandbyEvaluationsTest {
    private static final String ALIAS = "arn:aws:lambda:us-east-1:123456789012:function:gamefleet-prod-RunBalancer:live";

    @Test
    void anEvaluationIsAnAsynchronousInvocationNamingTheGroup() {
        AtomicReference<InvokeRequest> sent = new AtomicReference<>();
        // Captures the request and stops it before it leaves: nothing is sent anywhere.
        ExecutionInterceptor capture = new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                SdkRequest request = context.request();
                sent.set((InvokeRequest) request);
                throw new IllegalStateException("captured");
            }
        };
        try (LambdaClient lambda = LambdaClient.builder().region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKID", "secret")))
                .overrideConfiguration(c -> c.addExecutionInterceptor(capture)).build()) {
            LambdaStandbyEvaluations evaluations = new LambdaStandbyEvaluations(lambda, ALIAS);

            assertThatThrownBy(() -> evaluations.requested("arena")).isInstanceOf(RuntimeException.class);
        }
        InvokeRequest request = sent.get();
        assertThat(request.functionName()).isEqualTo(ALIAS);
        assertThat(request.invocationType()).isEqualTo(InvocationType.EVENT);
        assertThat(request.payload().asUtf8String()).isEqualTo("{\"" + Triggers.STANDBY_GROUP_MEMBER + "\":\"arena\"}");
    }
}
