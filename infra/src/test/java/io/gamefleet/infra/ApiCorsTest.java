package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.assertions.Template;

/** CORS on the HTTP API only for the origins context consoleOrigins names; none by default. */
class ApiCorsTest {
    @TempDir
    static Path temp;

    @SuppressWarnings("unchecked")
    private static Map<String, Object> api(Map<String, Object> context) {
        Template template = Template.fromStack(TestApps.stack(temp, context, "Gamefleet-prod"));
        Map<String, Object> api = template.findResources("AWS::ApiGatewayV2::Api",
                Map.of("Properties", Map.of("ProtocolType", "HTTP"))).values().iterator().next();
        return (Map<String, Object>) api.get("Properties");
    }

    @Test
    void noOriginIsAllowedByDefault() {
        assertThat(api(Map.of())).doesNotContainKey("CorsConfiguration");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theGivenOriginsMayCallWithTheHeadersTheJavaScriptSdkSigns() {
        Map<String, Object> cors = (Map<String, Object>) api(Map.of(DeploymentContext.CONSOLE_ORIGINS,
                "https://console.example.com, http://localhost:5173")).get("CorsConfiguration");
        assertThat(cors).containsEntry("AllowOrigins", List.of("https://console.example.com", "http://localhost:5173"))
                .containsEntry("MaxAge", 3600);
        assertThat((List<String>) cors.get("AllowMethods")).contains("GET", "POST", "PUT", "PATCH", "DELETE");
        assertThat((List<String>) cors.get("AllowHeaders")).contains("authorization", "x-amz-date", "x-amz-target",
                "x-amz-security-token", "content-type");
        assertThat(cors).doesNotContainKey("AllowCredentials");
    }

    @Test
    void anOriginMustBeSchemeHostAndPort() {
        for (String bad : List.of("*", "console.example.com", "https://console.example.com/path", "ftp://x")) {
            assertThatThrownBy(() -> api(Map.of(DeploymentContext.CONSOLE_ORIGINS, bad))).as(bad)
                    .hasMessageContaining(DeploymentContext.CONSOLE_ORIGINS);
        }
    }
}
