package io.gamefleet.local;

import static io.gamefleet.local.DocumentedCommands.REPOSITORY;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The README's first request, its shell block run as written against a local profile of the
 * test's own ({@link DocumentedCommands}). Skipped, with the reason, where curl is absent or older
 * than 7.75 (no --aws-sigv4).
 */
class ReadmeQuickstartTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension()
            .localOnly("the README's commands sign as the built-in admin, at the local profile's address");

    @Test
    void theReadmesFirstRequestRunsAsWritten() throws Exception {
        DocumentedCommands.assumeCurlSignsSigV4();
        String output = DocumentedCommands.run(DocumentedCommands.shellBlocks(REPOSITORY.resolve("README.md"),
                "## A first request", LOCAL.profile().endpoint()));
        List<String> answers = output.lines().toList();
        assertThat(output).as(output).doesNotContain("__type", "command not found");
        assertThat(answers).as(output).hasSize(6);
        assertThat(answers.get(0)).contains("\"GameServerGroupName\":\"arena\"", "\"Status\":\"NEW\"");
        assertThat(answers.get(1)).contains("\"GameServerId\":\"match-1\"", "\"InstanceId\":\"i-",
                "\"UtilizationStatus\":\"AVAILABLE\"");
        assertThat(answers.get(2)).contains("\"GameServerId\":\"match-1\"", "\"ClaimStatus\":\"CLAIMED\"");
        assertThat(answers.get(3)).contains("\"UtilizationStatus\":\"UTILIZED\"");
        assertThat(answers.get(4)).isEqualTo("{}");
        assertThat(answers.get(5)).contains("\"Status\":\"DELETE_SCHEDULED\"");
    }
}
