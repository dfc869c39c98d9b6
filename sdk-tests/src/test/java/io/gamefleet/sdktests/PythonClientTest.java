package io.gamefleet.sdktests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gamefleet.sdktests.LocalGamefleet.Profile;
import java.io.File;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * boto3 and the AWS CLI, where this machine has them (they are not part of the build): each test is
 * skipped, with the reason, where {@code python3 -c "import boto3"} or {@code aws --version} fails.
 */
@ExtendWith(LocalGamefleet.class)
class PythonClientTest {
    private static final Pattern GROUP = Pattern.compile("\"group\": \"([^\"]+)\"");

    @Test
    void boto3CreatesClaimsAndSeesAModelledError(Profile profile) {
        assertThat(boto3(profile)).contains("\"scope\": \"us-east-1/gamelift\"");
    }

    @Test
    void boto3WithTheSigningNameHandlerSignsForExecuteApi(Profile profile) {
        // docs/sdks.md's boto3 snippet for a deployment in AWS; the local profile takes both names.
        assertThat(boto3(profile, "--signing-name", "execute-api")).contains("\"scope\": \"us-east-1/execute-api\"");
    }

    @Test
    void theAwsCliClaimsWithOnlyTheEndpointChanged(Profile profile) {
        assumeTrue(Command.available(List.of("aws", "--version")), "the AWS CLI (aws) is not installed here");
        Matcher group = GROUP.matcher(boto3(profile));
        assertThat(group.find()).isTrue();
        File module = LocalGamefleet.Profile.moduleDir().toFile();

        // docs/sdks.md's claim-game-server command, with the local admin's keys in the environment.
        Command.Result claimed = Command.run(List.of("aws", "gamelift", "claim-game-server",
                "--endpoint-url", profile.endpoint().toString(), "--game-server-group-name", group.group(1)),
                module, LocalGamefleet.ADMIN, Map.of());
        assertThat(claimed.exitCode()).as(claimed.describe()).isZero();
        // Which server: claimers pick at random among the best candidates, and the claim TTL here is short.
        assertThat(claimed.stdout()).contains("\"ClaimStatus\": \"CLAIMED\"", "\"GameServerId\": \"" + group.group(1));

        Command.Result missing = Command.run(List.of("aws", "gamelift", "describe-game-server-group",
                "--endpoint-url", profile.endpoint().toString(), "--game-server-group-name", "cli-no-such-group"),
                module, LocalGamefleet.ADMIN, Map.of());
        assertThat(missing.exitCode()).as(missing.describe()).isNotZero();
        assertThat(missing.stderr()).contains("(NotFoundException)", "cli-no-such-group");
    }

    /** Runs src/test/python/boto3_lifecycle.py, which checks every response and request and exits non-zero on a mismatch. */
    private static String boto3(Profile profile, String... options) {
        assumeTrue(Command.available(List.of("python3", "-c", "import boto3")),
                "boto3 is not installed here (python3 -c \"import boto3\" failed)");
        List<String> command = new java.util.ArrayList<>(List.of("python3", "src/test/python/boto3_lifecycle.py",
                "--endpoint", profile.endpoint().toString()));
        command.addAll(List.of(options));
        Command.Result result = Command.run(command, LocalGamefleet.Profile.moduleDir().toFile(), LocalGamefleet.ADMIN,
                Map.of("PYTHONDONTWRITEBYTECODE", "1"));
        assertThat(result.exitCode()).as(result.describe()).isZero();
        return result.stdout();
    }
}
