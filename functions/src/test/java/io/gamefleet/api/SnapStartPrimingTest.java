package io.gamefleet.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import io.gamefleet.functions.FunctionRegistry;
import io.gamefleet.wiring.AwsServices;
import io.gamefleet.wiring.Services;
import io.gamefleet.wiring.TestServices;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/** Priming runs the handler's paths, DynamoDB included, and never fails the snapshot. */
class SnapStartPrimingTest {
    private final AtomicInteger dynamoCalls = new AtomicInteger();
    // Nothing listens on port 1: the read fails, as it may while a snapshot is taken.
    private final Services services = AwsServices.fromEnvironment(Map.of("AWS_REGION", "us-east-1", "GAMEFLEET_PAGE_TOKEN_KEY", "a-test-pagination-key",
            "AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:1")).credentials(StaticCredentialsProvider.create(
            AwsBasicCredentials.create("a", "b"))).interceptors(List.of(new ExecutionInterceptor() {
                @Override
                public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                    dynamoCalls.incrementAndGet();
                }
            })).build();

    @Test
    void primingReachesDynamoDbAndSwallowsItsFailure() {
        DescribeGameServerGroupHandler handler = new DescribeGameServerGroupHandler(services);

        assertThatCode(() -> SnapStartPriming.prime(handler)).doesNotThrowAnyException();
        assertThat(dynamoCalls.get()).isPositive();
        assertThat(handler.priming).isInstanceOf(SnapStartPriming.class);
    }

    @Test
    void aFunctionWhoseRoleMayNotReadGroupsPrimesWithoutTheRead() {
        // DescribeGameServer's role reads GameServers only: a groups read would be denied in AWS.
        SnapStartPriming.prime(new DescribeGameServerHandler(services));
        assertThat(dynamoCalls.get()).isZero();
    }

    @Test
    void thePrimingRequestGetsPastDecodingIntoValidationForEveryOperation() {
        Services services = TestServices.unreachableStore(Map.of());
        FunctionRegistry functions = new FunctionRegistry(services);
        for (Route route : Routes.ALL) {
            ApiHandler handler = functions.api(route.operation());
            var response = handler.handleRequest(SnapStartPriming.request(), null);
            // Refused by validation (decoded, merged, checked), not as malformed JSON, and before the
            // store: DynamoDB here is unreachable, so reaching it would be a 500.
            assertThat(response.getStatusCode()).as(route.operation().fleetIqName()).isEqualTo(400);
            assertThat(response.getBody()).as(route.operation().fleetIqName()).contains("InvalidRequestException")
                    .doesNotContain("JSON");
        }
    }

}
