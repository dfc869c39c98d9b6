package io.gamefleet.sdktests;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.sdktests.LocalGamefleet.Profile;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.services.gamelift.GameLiftClient;
import software.amazon.awssdk.services.gamelift.auth.scheme.GameLiftAuthSchemeProvider;
import software.amazon.awssdk.services.gamelift.model.NotFoundException;

/**
 * docs/sdks.md's Java snippet for a deployment in AWS, where API Gateway's IAM auth wants requests
 * signed for {@code execute-api}: an auth scheme provider that sets the SigV4 signing name. The
 * local profile accepts both names, so the test also reads each request's credential scope.
 */
@ExtendWith(LocalGamefleet.class)
class JavaSigningNameTest {

    /** docs/sdks.md's snippet, apart from the endpoint, the credentials and the interceptor. */
    static GameLiftClient signedForExecuteApi(Profile profile, ExecutionInterceptor spy) {
        GameLiftAuthSchemeProvider defaults = GameLiftAuthSchemeProvider.defaultProvider();
        return JavaClients.builder(profile, LocalGamefleet.ADMIN)
                .authSchemeProvider(params -> defaults.resolveAuthScheme(params).stream()
                        .map(option -> option.toBuilder()
                                .putSignerProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "execute-api")
                                .build())
                        .toList())
                .overrideConfiguration(o -> o.addExecutionInterceptor(spy))
                .build();
    }

    @Test
    void theAuthSchemeProviderSignsForExecuteApi(Profile profile) {
        Scopes scopes = new Scopes();
        try (GameLiftClient gameLift = signedForExecuteApi(profile, scopes)) {
            gameLift.listGameServerGroups(r -> r.limit(1));
            try {
                gameLift.describeGameServerGroup(r -> r.gameServerGroupName("java-signing-no-such-group"));
                throw new AssertionError("expected NotFoundException");
            } catch (NotFoundException expected) {
                // signed, accepted, answered
            }
        }
        assertThat(scopes.seen).hasSize(2).allSatisfy(scope -> assertThat(scope).isEqualTo("us-east-1/execute-api"));
    }

    @Test
    void withoutItTheClientSignsForGamelift(Profile profile) {
        Scopes scopes = new Scopes();
        try (GameLiftClient gameLift = JavaClients.builder(profile, LocalGamefleet.ADMIN)
                .overrideConfiguration(o -> o.addExecutionInterceptor(scopes)).build()) {
            gameLift.listGameServerGroups(r -> r.limit(1));
        }
        assertThat(scopes.seen).containsExactly("us-east-1/gamelift");
    }

    /** Each request's credential scope (region/service), as sent in its Authorization header. */
    static final class Scopes implements ExecutionInterceptor {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            String authorization = context.httpRequest().firstMatchingHeader("Authorization").orElse("");
            // AWS4-HMAC-SHA256 Credential=<key>/<date>/<region>/<service>/aws4_request, ...
            String credential = authorization.replaceFirst("^.*Credential=([^,]+),.*$", "$1");
            String[] parts = credential.split("/");
            seen.add(parts.length == 5 ? parts[2] + "/" + parts[3] : "unsigned: " + authorization);
        }
    }
}
