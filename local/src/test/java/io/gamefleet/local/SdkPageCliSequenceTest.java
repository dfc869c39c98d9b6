package io.gamefleet.local;

import static io.gamefleet.local.DocumentedCommands.REPOSITORY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * docs/sdks.md's AWS CLI sequence against the local profile, its shell block run as written
 * against a local profile of the test's own ({@link DocumentedCommands}). Skipped, with the
 * reason, where the AWS CLI is not installed.
 */
class SdkPageCliSequenceTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension()
            .localOnly("the page's commands sign as the built-in admin, at the local profile's address");

    @Test
    void theAwsCliSequenceRunsAsWritten() throws Exception {
        assumeTrue(DocumentedCommands.exitsZero("aws", "--version"), "the AWS CLI (aws) is not installed here");
        String output = DocumentedCommands.run(DocumentedCommands.shellBlocks(REPOSITORY.resolve("docs/sdks.md"),
                "## Against the local profile", LOCAL.profile().endpoint()));
        assertThat(output).as(output).doesNotContain("An error occurred", "command not found")
                .contains("\"ClaimStatus\": \"CLAIMED\"", "\"Status\": \"DELETE_SCHEDULED\"");
    }
}
