package io.gamefleet.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.amazonaws.xray.AWSXRay;
import com.amazonaws.xray.entities.Segment;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Settings;
import io.gamefleet.domain.ErrorKind;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.fakes.FakeCompute;
import io.gamefleet.domain.fakes.MutableClock;
import io.gamefleet.domain.fakes.RecordingMetrics;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/** The Services a deployed function builds from its environment; requests are stopped before they leave. */
class AwsServicesTest {
    private final List<URI> sent = new ArrayList<>();
    private final List<String> authorizations = new ArrayList<>();
    private final ExecutionInterceptor stop = new ExecutionInterceptor() {
        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            sent.add(context.httpRequest().getUri());
            context.httpRequest().firstMatchingHeader("Authorization").ifPresent(authorizations::add);
            throw new IllegalStateException("stopped before transmission");
        }
    };

    private static final String KEY = "a-test-pagination-key";

    private Services build(Map<String, String> environment) {
        Map<String, String> env = new HashMap<>(Map.of("AWS_REGION", "eu-west-1", "GAMEFLEET_PAGE_TOKEN_KEY", KEY));
        env.putAll(environment);
        return AwsServices.fromEnvironment(env)
                .credentials(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .interceptors(List.of(stop)).build();
    }

    /** Where a DynamoDB request of these services goes. */
    private URI dynamoDb(Services services) {
        assertThatThrownBy(() -> services.groups().describe("arena")).hasStackTraceContaining("stopped before transmission");
        assertThat(sent).hasSize(1);
        return sent.get(0);
    }

    @Test
    void withoutAClusterAContainerGroupIsRefusedSayingSoAndNothingIsSent() {
        Services services = build(Map.of());
        GamefleetException refused = org.assertj.core.api.Assertions.catchThrowableOfType(
                () -> services.taskDefinitions().describe("game:1"), GamefleetException.class);
        assertThat(refused.kind()).isEqualTo(ErrorKind.INVALID_REQUEST);
        assertThat(refused).hasMessage("container groups need a stack deployed with containers=true: this deployment "
                + "names no ECS cluster (GAMEFLEET_CONTAINER_CLUSTER)");
        assertThat(sent).isEmpty();
    }

    @Test
    void aRegionIsRequired() {
        assertThatThrownBy(() -> AwsServices.fromEnvironment(Map.of()).build()).isInstanceOf(IllegalStateException.class)
                .hasMessage("AWS_REGION is not set");
        assertThatThrownBy(() -> AwsServices.fromEnvironment(Map.of("AWS_REGION", " ")).build())
                .isInstanceOf(IllegalStateException.class).hasMessage("AWS_REGION is not set");
    }

    @Test
    void withoutEndpointVariablesTheRegionsEndpointIsUsed() {
        URI uri = dynamoDb(build(Map.of()));
        assertThat(uri.getHost()).isEqualTo("dynamodb.eu-west-1.amazonaws.com");
        assertThat(authorizations).singleElement().asString().contains("Credential=a/"); // the given credentials
    }

    @Test
    void withoutGivenCredentialsTheEnvironmentsKeysSignTheRequests() {
        List<String> tokens = new ArrayList<>();
        ExecutionInterceptor record = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                context.httpRequest().firstMatchingHeader("X-Amz-Security-Token").ifPresent(tokens::add);
            }
        };
        Services services = AwsServices.fromEnvironment(Map.of("AWS_REGION", "eu-west-1", "GAMEFLEET_PAGE_TOKEN_KEY", KEY,
                "AWS_ACCESS_KEY_ID", "envkey", "AWS_SECRET_ACCESS_KEY", "envsecret", "AWS_SESSION_TOKEN", "envtoken"))
                .interceptors(List.of(record, stop)).build();
        dynamoDb(services);
        assertThat(authorizations).singleElement().asString().contains("Credential=envkey/")
                .contains("x-amz-security-token");
        assertThat(tokens).containsExactly("envtoken");
    }

    @Test
    void theServicesOwnEndpointVariableComesFirst() {
        URI uri = dynamoDb(build(Map.of("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:1111",
                "AWS_ENDPOINT_URL", "http://127.0.0.1:2222")));
        assertThat(uri.getPort()).isEqualTo(1111);
    }

    @Test
    void theGeneralEndpointVariableServesWhereTheOwnIsUnsetOrBlank() {
        assertThat(dynamoDb(build(Map.of("AWS_ENDPOINT_URL", "http://127.0.0.1:2222"))).getPort()).isEqualTo(2222);
        sent.clear();
        assertThat(dynamoDb(build(Map.of("AWS_ENDPOINT_URL_DYNAMODB", " ", "AWS_ENDPOINT_URL", "http://127.0.0.1:3333")))
                .getPort()).isEqualTo(3333);
        sent.clear();
        assertThat(dynamoDb(build(Map.of("AWS_ENDPOINT_URL", " "))).getHost()).isEqualTo("dynamodb.eu-west-1.amazonaws.com");
    }

    /** The pagination key is read from its secret as the services are built, not taken from the environment. */
    @Test
    void thePaginationKeyIsReadFromItsSecretAtStartAndAnUnreadableOneFailsTheStart() {
        String secret = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:PageTokenKey-AbCdEf";
        assertThatThrownBy(() -> build(Map.of("GAMEFLEET_PAGE_TOKEN_SECRET_ARN", secret,
                "GAMEFLEET_PAGE_TOKEN_KEY", "must-not-be-used")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("cannot read the pagination key from secret " + secret);
        assertThat(sent).singleElement().satisfies(uri -> assertThat(uri.getHost())
                .isEqualTo("secretsmanager.eu-west-1.amazonaws.com"));
        // Without a secret (the local profile) the setting is the key, and nothing is asked.
        sent.clear();
        build(Map.of());
        assertThat(sent).isEmpty();
    }

    /** No secret and no key: the function does not start, rather than sign page tokens with a key everyone knows. */
    @Test
    void withNoPaginationKeyAtAllTheStartFailsSayingWhatToSet() {
        assertThat(Settings.PAGE_TOKEN_KEY.defaultValue()).isEmpty();
        for (String blank : List.of("", " ")) {
            assertThatThrownBy(() -> build(Map.of("GAMEFLEET_PAGE_TOKEN_KEY", blank))).isInstanceOf(IllegalStateException.class)
                    .hasMessage("no pagination key: set GAMEFLEET_PAGE_TOKEN_SECRET_ARN (the secret the stack makes) or"
                            + " GAMEFLEET_PAGE_TOKEN_KEY (the key itself, as the local profile does); with none, page tokens"
                            + " could be forged");
        }
        assertThat(sent).as("nothing was asked of any service").isEmpty();
    }

    @Test
    void settingsComeFromTheEnvironmentOrTheirDefaults() {
        Services defaults = build(Map.of());
        assertThat(defaults.settings().claimTtl()).isEqualTo(Duration.ofSeconds(60));
        assertThat(defaults.settings().region()).isEqualTo("eu-west-1");
        assertThat(defaults.callerRoles().get(Role.ADMIN).arn()).isEmpty();

        Services set = build(Map.of("GAMEFLEET_CLAIM_TTL_SECONDS", "90", "GAMEFLEET_HEALTH_TIMEOUT_SECONDS", " ",
                "GAMEFLEET_ACCOUNT_ID", "123456789012", "GAMEFLEET_ADMIN_ROLE_ARN", "arn:aws:iam::123456789012:role/admin",
                "GAMEFLEET_ADMIN_ROLE_ID", "AROAADMIN"));
        assertThat(set.settings().claimTtl()).isEqualTo(Duration.ofSeconds(90));
        assertThat(set.settings().healthTimeout()).isEqualTo(Duration.ofSeconds(180));
        assertThat(set.settings().groupArn("arena"))
                .isEqualTo("arn:aws:gamelift:eu-west-1:123456789012:gameservergroup/arena");
        assertThat(set.callerRoles()).containsEntry(Role.ADMIN,
                new CallerRole("arn:aws:iam::123456789012:role/admin", "AROAADMIN"));
    }

    @Test
    void aSettingThatIsNotANumberFailsTheStartSayingWhich() {
        assertThatThrownBy(() -> build(Map.of("GAMEFLEET_CLAIM_TTL_SECONDS", "1m"))).isInstanceOf(IllegalStateException.class)
                .hasMessage("GAMEFLEET_CLAIM_TTL_SECONDS must be a whole number of seconds, not 1m");
        assertThatThrownBy(() -> build(Map.of("GAMEFLEET_VIABILITY_THRESHOLD", "a fifth")))
                .isInstanceOf(IllegalStateException.class).hasMessage("GAMEFLEET_VIABILITY_THRESHOLD must be a number, not a fifth");
    }

    @Test
    void theGivenClockComputeAndMetricsAreTheOnesUsed() {
        MutableClock clock = new MutableClock(Instant.parse("2100-01-01T00:00:00Z"));
        FakeCompute compute = new FakeCompute();
        RecordingMetrics metrics = new RecordingMetrics();
        Services services = AwsServices.fromEnvironment(Map.of("AWS_REGION", "eu-west-1", "GAMEFLEET_PAGE_TOKEN_KEY", KEY))
                .clock(clock).compute(compute)
                .metrics(metrics).credentials(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .interceptors(List.of(stop)).build();
        assertThat(services.clock()).isSameAs(clock);
        assertThat(services.instanceEvents()).isSameAs(services.instanceEvents());
        assertThat(services.balancer()).isSameAs(services.balancer());
        assertThat(services.lifecycle()).isSameAs(services.lifecycle());
        assertThat(services.gameServers()).isNotNull();
        assertThat(compute.calls()).isEmpty();
    }

    @Test
    void whereTheDeploymentTracesEachDynamoDbCallIsASubsegmentOfTheFunctionsTrace() {
        Segment segment = AWSXRay.beginSegment("gamefleet-test");
        try {
            dynamoDb(build(Map.of(Settings.TRACING.environmentVariable(), "true")));
            assertThat(segment.getSubsegments()).singleElement().satisfies(call -> {
                assertThat(call.getName()).isEqualTo("DynamoDb");
                assertThat(call.getNamespace()).isEqualTo("aws");
                assertThat(call.getAws()).containsEntry("operation", "GetItem");
                assertThat(call.getCause().getExceptions()).isNotEmpty(); // the failure (here: stopped) is recorded
            });
        } finally {
            AWSXRay.clearTraceEntity();
        }
    }

    @Test
    void withoutTracingNoCallIsRecorded() {
        Segment segment = AWSXRay.beginSegment("gamefleet-test");
        try {
            dynamoDb(build(Map.of(Settings.TRACING.environmentVariable(), "false")));
            assertThat(segment.getSubsegments()).isEmpty();
        } finally {
            AWSXRay.clearTraceEntity();
        }
    }
}
