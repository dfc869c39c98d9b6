package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Template;

/**
 * The template passes cfn-lint in every region docs/deploy.md says Gamefleet supports, and with peer
 * regions (their template rule) and container groups too, where cfn-lint is installed (it is a Python
 * tool, not a Maven artifact): skipped with the reason elsewhere.
 */
class CfnLintTest {
    @TempDir
    static Path temp;

    @Test
    void theTemplateIsValidInEverySupportedRegion() throws Exception {
        lint(Map.of(), SupportedRegions.ALL);
    }

    /** Peers add nothing regional (a rule, IAM statements, variables): two regions suffice, and halve the time. */
    @Test
    void theTemplateWithPeerRegionsIsValid() throws Exception {
        lint(PeerRegionsStackTest.twoPeers(), List.of("us-east-1", "ap-southeast-7"));
    }

    /** The console adds CloudFront (global), S3 and Cognito, which every supported region has: two regions suffice. */
    @Test
    void theTemplateWithTheConsoleIsValid() throws Exception {
        lint(ConsoleSiteStackTest.withConsole(), List.of("us-east-1", "ap-southeast-7"));
    }

    /** Container groups add ECS, EC2 security groups and IAM, which every supported region has: two regions suffice. */
    @Test
    void theTemplateWithContainerGroupsIsValid() throws Exception {
        lint(ContainerGroupsStackTest.withContainers(), List.of("us-east-1", "ap-southeast-7"));
    }

    /** Their EC2 capacity adds Auto Scaling, a launch template and an ECS capacity provider: two regions suffice. */
    @Test
    void theTemplateWithContainerInstancesIsValid() throws Exception {
        lint(ContainerInstancesStackTest.withContainerInstances(), List.of("us-east-1", "ap-southeast-7"));
    }

    private static void lint(Map<String, Object> context, List<String> regions) throws Exception {
        assumeTrue(cfnLintAvailable(), "cfn-lint is not installed (pip install cfn-lint): the template is not linted");
        Path template = temp.resolve("Gamefleet-prod-" + context.hashCode() + ".template.json");
        Files.writeString(template, new ObjectMapper().writerWithDefaultPrettyPrinter()
                .writeValueAsString(synth(context).toJSON()));
        // W3005: CDK makes each function depend on its role, which its GetAtt of the role already does.
        List<String> command = new ArrayList<>(List.of("cfn-lint", "--ignore-checks", "W3005", "--regions"));
        command.addAll(regions);
        command.addAll(List.of("--", template.toString()));
        Process lint = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(lint.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(lint.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(lint.exitValue()).as(output).isZero();
    }

    static boolean cfnLintAvailable() {
        try {
            Process p = new ProcessBuilder("cfn-lint", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    static Template synth(Map<String, Object> context) {
        return Template.fromStack(TestApps.stack(temp, context, "Gamefleet-prod"));
    }
}
