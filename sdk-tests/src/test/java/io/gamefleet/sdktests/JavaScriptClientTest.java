package io.gamefleet.sdktests;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.sdktests.LocalGamefleet.Profile;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The official AWS SDK for JavaScript v3 GameLift client ({@code @aws-sdk/client-gamelift}, from
 * this module's package-lock.json, installed by the pom with {@code npm ci}) running
 * {@code src/test/js/lifecycle.mjs} under Node against the local profile.
 *
 * <p>Client 3.1133.0 speaks AWS JSON 1.1 ({@code POST /}, {@code X-Amz-Target}) unless its
 * {@code protocol} option names {@code AwsSmithyRpcV2CborProtocol}; then it speaks Smithy RPC v2
 * CBOR. Both run here, so this is also the CBOR door's end-to-end test with an official client.
 */
@ExtendWith(LocalGamefleet.class)
class JavaScriptClientTest {

    @Test
    void theLifecycleOverAwsJson(Profile profile) {
        assertThat(lifecycle(profile, "--protocol", "json")).contains("\"protocol\":\"json\"", "\"scope\":\"us-east-1/gamelift\"");
    }

    @Test
    void theLifecycleOverRpcV2Cbor(Profile profile) {
        assertThat(lifecycle(profile, "--protocol", "cbor")).contains("\"protocol\":\"cbor\"", "\"scope\":\"us-east-1/gamelift\"");
    }

    @Test
    void theSigningNameOverrideSignsForExecuteApi(Profile profile) {
        // docs/sdks.md's JavaScript snippet for a deployment in AWS; the local profile takes both names.
        assertThat(lifecycle(profile, "--protocol", "json", "--signing-name", "execute-api"))
                .contains("\"scope\":\"us-east-1/execute-api\"");
    }

    /** Runs the script; it checks every response and every request itself and exits non-zero on a mismatch. */
    private static String lifecycle(Profile profile, String... options) {
        File module = LocalGamefleet.Profile.moduleDir().toFile();
        assertThat(new File(module, "node_modules/@aws-sdk/client-gamelift/package.json"))
                .as("the JavaScript client, installed by this module's pom (npm ci)").exists();
        List<String> command = new ArrayList<>(List.of("node", "src/test/js/lifecycle.mjs",
                "--endpoint", profile.endpoint().toString()));
        command.addAll(List.of(options));
        Command.Result result = Command.run(command, module, LocalGamefleet.ADMIN,
                // Node 20 makes the client warn that its releases from 2027 need Node 22.
                Map.of("NODE_NO_WARNINGS", "1"));
        assertThat(result.exitCode()).as(result.describe()).isZero();
        return result.stdout();
    }
}
