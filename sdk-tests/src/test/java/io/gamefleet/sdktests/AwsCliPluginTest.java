package io.gamefleet.sdktests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gamefleet.sdktests.LocalGamefleet.Profile;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.gamelift.GameLiftClient;
import software.amazon.awssdk.services.gamelift.model.GameLiftException;

/**
 * The repository's AWS CLI plugin (cli/gamefleet_cli.py) against {@code local/run --strict-signing},
 * which takes only {@code execute-api} signatures, as API Gateway does: docs/sdks.md's AWS CLI
 * sequence, as the page has it, runs through the plugin, enabled the way the page says for AWS CLI
 * v1 (a config file's {@code [plugins]}, the module on PYTHONPATH), and fails without it. The strict
 * profile is a second one beside the module's shared profile, started by the first test that needs
 * it. Each test is skipped, with the reason, where the AWS CLI (or boto3) is not installed.
 */
class AwsCliPluginTest {
    private static final String DOCUMENTED_ADDRESS = "http://127.0.0.1:4590";
    private static final Pattern SHELL_BLOCK = Pattern.compile("(?ms)^```sh\\n(.*?)^```$");
    private static final String REFUSAL = "credential scope service 'gamelift' should be 'execute-api'";

    private static Profile strict;

    @TempDir
    static Path home;

    @AfterAll
    static void stopTheStrictProfile() {
        if (strict != null) {
            strict.close();
        }
    }

    @Test
    void theSdkPagesSequenceRunsThroughThePluginAgainstStrictSigning() {
        assumeAwsCli();
        Command.Result run = bash(sdkPageSequence(strictProfile().endpoint()), withPlugin());
        assertThat(run.exitCode()).as(run.describe()).isZero();
        assertThat(run.stdout()).as(run.describe())
                .contains("\"ClaimStatus\": \"CLAIMED\"", "\"Status\": \"DELETE_SCHEDULED\"");
    }

    @Test
    void withoutThePluginItsFirstCommandIsRefusedForItsSigningName() {
        assumeAwsCli();
        Profile profile = strictProfile();
        Command.Result first = bash(upToItsFirstCommand(sdkPageSequence(profile.endpoint())), Map.of());
        assertThat(first.exitCode()).as(first.describe()).isNotZero();
        assertThat(first.stderr()).as(first.describe()).contains("(UnauthorizedException)", REFUSAL);
        // The status, seen by another client that signs for gamelift: API Gateway's 403.
        try (GameLiftClient gameLift = JavaClients.gameLift(profile, LocalGamefleet.ADMIN)) {
            assertThatThrownBy(() -> gameLift.listGameServerGroups(r -> { }))
                    .isInstanceOfSatisfying(GameLiftException.class, e -> assertThat(e.statusCode()).isEqualTo(403))
                    .hasMessageContaining(REFUSAL);
        }
    }

    @Test
    void withThePluginACallToGameLiftItselfIsSignedForGameLiftAsBefore() {
        assumeAwsCli();
        // No endpoint configured: GameLift's own. A proxy nobody listens on stops it once signed.
        Map<String, String> environment = new HashMap<>(withPlugin());
        environment.putAll(Map.of("HTTPS_PROXY", "http://127.0.0.1:1", "NO_PROXY", "", "AWS_MAX_ATTEMPTS", "1"));
        Command.Result call = Command.run(List.of("aws", "gamelift", "list-game-server-groups", "--debug"),
                Profile.moduleDir().toFile(), LocalGamefleet.ADMIN, environment);
        assertThat(call.exitCode()).as(call.describe()).isNotZero();
        assertThat(call.stderr()).as(call.describe()).contains("url=https://gamelift.us-east-1.amazonaws.com/",
                "Credential=" + LocalGamefleet.ADMIN.accessKeyId() + "/", "/us-east-1/gamelift/aws4_request")
                .doesNotContain("/execute-api/aws4_request");
    }

    @Test
    void boto3WithThePluginsHandlersSignsForExecuteApi() {
        assumeTrue(Command.available(List.of("python3", "-c", "import boto3")),
                "boto3 is not installed here (python3 -c \"import boto3\" failed)");
        Command.Result run = Command.run(List.of("python3", "src/test/python/boto3_lifecycle.py", "--endpoint",
                strictProfile().endpoint().toString(), "--gamefleet-cli"), Profile.moduleDir().toFile(),
                LocalGamefleet.ADMIN, withPlugin());
        assertThat(run.exitCode()).as(run.describe()).isZero();
        assertThat(run.stdout()).contains("\"scope\": \"us-east-1/execute-api\"");
    }

    private static void assumeAwsCli() {
        assumeTrue(Command.available(List.of("aws", "--version")), "the AWS CLI (aws) is not installed here");
    }

    private static synchronized Profile strictProfile() {
        if (strict == null) {
            strict = Profile.start("strict-signing-profile", List.of("--strict-signing"));
        }
        return strict;
    }

    /** docs/sdks.md's: a config file of a HOME of its own that names the plugin, and the module on PYTHONPATH. */
    private static Map<String, String> withPlugin() {
        Path config = home.resolve(".aws/config");
        try {
            Files.createDirectories(config.getParent());
            Files.writeString(config, "[plugins]\ngamefleet = gamefleet_cli\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of("HOME", home.toString(), "AWS_CONFIG_FILE", config.toString(),
                "PYTHONPATH", Profile.moduleDir().resolve("../cli").normalize().toString(),
                "PYTHONDONTWRITEBYTECODE", "1");
    }

    /** The sh blocks of docs/sdks.md's "Against the local profile", the one change the documented address. */
    private static String sdkPageSequence(URI endpoint) {
        String page;
        try {
            page = Files.readString(Profile.moduleDir().resolve("../docs/sdks.md"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Matcher section = Pattern.compile("(?ms)^## Against the local profile\\n(.*?)(?=^## |\\z)").matcher(page);
        assertThat(section.find()).as("docs/sdks.md's section Against the local profile").isTrue();
        String script = String.join("\n",
                SHELL_BLOCK.matcher(section.group(1)).results().map(b -> b.group(1)).toList());
        assertThat(script).as("the section's sh blocks").contains(DOCUMENTED_ADDRESS, "aws gamelift ");
        return script.replace(DOCUMENTED_ADDRESS, endpoint.toString());
    }

    /** The script's lines up to its first {@code aws gamelift} command, that command's continuation lines too. */
    private static String upToItsFirstCommand(String script) {
        List<String> commands = List.of(script.replace("\\\n", " ").split("\n"));
        int first = 0;
        while (!commands.get(first).startsWith("aws gamelift ")) {
            first++;
        }
        return String.join("\n", commands.subList(0, first + 1));
    }

    private static Command.Result bash(String script, Map<String, String> environment) {
        File directory = Profile.moduleDir().toFile();
        return Command.run(List.of("bash", "-e", "-c", script), directory, LocalGamefleet.ADMIN, environment);
    }
}
