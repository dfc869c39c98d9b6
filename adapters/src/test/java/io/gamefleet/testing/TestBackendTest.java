package io.gamefleet.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.testing.TestBackend.Kind;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The selection of the test backend from system properties; no backend is started here. */
class TestBackendTest {
    private static TestBackend parse(Map<String, String> properties) {
        return TestBackend.parse(properties::get);
    }

    @Test
    void embeddedIsTheDefaultAndNeverAsksForDocker() {
        TestBackend backend = parse(Map.of());
        assertThat(backend.kind()).isEqualTo(Kind.EMBEDDED);
        assertThat(backend.dynamoDb()).isEmpty();
        assertThat(backend.stepFunctions()).isEmpty();
        assertThat(backend.skipReason(() -> {
            throw new AssertionError("the embedded backend must not look for Docker");
        })).isEmpty();
        assertThat(parse(Map.of(TestBackend.BACKEND, " Embedded ")).kind()).isEqualTo(Kind.EMBEDDED);
        assertThat(parse(Map.of(TestBackend.BACKEND, "")).kind()).isEqualTo(Kind.EMBEDDED);
    }

    @Test
    void localStackRunsWithDockerAndIsSkippedWithTheReasonWithout() {
        TestBackend backend = parse(Map.of(TestBackend.BACKEND, "localstack"));
        assertThat(backend.kind()).isEqualTo(Kind.LOCALSTACK);
        assertThat(backend.localStackImage()).isEqualTo("localstack/localstack:4");
        assertThat(backend.stepFunctions()).as("Step Functions stays the embedded sidecar").isEmpty();
        assertThat(backend.skipReason(() -> true)).isEmpty();
        assertThat(backend.skipReason(() -> false)).hasValueSatisfying(reason -> assertThat(reason)
                .contains("gamefleet.backend=localstack", "no Docker engine", "skipped", "-Plocalstack"));
        assertThat(parse(Map.of(TestBackend.BACKEND, "localstack", TestBackend.LOCALSTACK_IMAGE,
                "localstack/localstack:4.3")).localStackImage()).isEqualTo("localstack/localstack:4.3");
    }

    @Test
    void endpointsUseTheGivenUrlsAndNeverSkip() {
        TestBackend backend = parse(Map.of(TestBackend.BACKEND, "endpoints",
                TestBackend.DYNAMODB_ENDPOINT, "http://127.0.0.1:8000"));
        assertThat(backend.kind()).isEqualTo(Kind.ENDPOINTS);
        assertThat(backend.dynamoDb()).contains(URI.create("http://127.0.0.1:8000"));
        assertThat(backend.stepFunctions()).isEmpty();
        assertThat(backend.skipReason(() -> false)).isEmpty();
        assertThat(parse(Map.of(TestBackend.BACKEND, "endpoints", TestBackend.DYNAMODB_ENDPOINT, "http://a:1",
                TestBackend.STEPFUNCTIONS_ENDPOINT, "http://b:2")).stepFunctions())
                .isEqualTo(Optional.of(URI.create("http://b:2")));
    }

    @Test
    void mistakesFailSayingWhich() {
        assertThatThrownBy(() -> parse(Map.of(TestBackend.BACKEND, "docker")))
                .hasMessageContaining("must be embedded, localstack or endpoints, not docker");
        assertThatThrownBy(() -> parse(Map.of(TestBackend.BACKEND, "endpoints")))
                .hasMessageContaining("needs -Dgamefleet.dynamodb.endpoint=URL");
        assertThatThrownBy(() -> parse(Map.of(TestBackend.BACKEND, "endpoints", TestBackend.DYNAMODB_ENDPOINT, "8000")))
                .hasMessageContaining("gamefleet.dynamodb.endpoint must be a URL");
        assertThatThrownBy(() -> parse(Map.of(TestBackend.DYNAMODB_ENDPOINT, "http://127.0.0.1:8000")))
                .as("an endpoint without the backend that reads it is a mistake, not a silent embedded run")
                .hasMessageContaining("read only with -Dgamefleet.backend=endpoints");
    }
}
