package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.cxapi.SynthesisMessage;

/**
 * The app's cdk-nag AwsSolutions checks: no unsuppressed error, and no warning either, with the
 * default context, with peer regions (whose AssumeRole statements name their roles, no wildcard) and
 * with the console (console=true) and with container groups (containers=true), on EC2 capacity too
 * (containerInstanceTypes).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NagChecksTest {
    @TempDir
    static Path temp;

    private Annotations annotations;
    private Annotations peeredAnnotations;
    private Annotations consoleAnnotations;
    private Map<String, Object> consoleResources;
    private Annotations containerAnnotations;
    private Map<String, Object> containerResources;
    private Annotations instanceAnnotations;
    private Map<String, Object> instanceResources;
    private Map<String, Object> resources;

    @BeforeAll
    void synthesize() throws IOException {
        GamefleetStack stack = checked(Map.of());
        annotations = Annotations.fromStack(stack);
        resources = cast(Template.fromStack(stack).toJSON().get("Resources"));
        peeredAnnotations = Annotations.fromStack(checked(PeerRegionsStackTest.twoPeers()));
        GamefleetStack console = checked(ConsoleSiteStackTest.withConsole());
        consoleAnnotations = Annotations.fromStack(console);
        consoleResources = cast(Template.fromStack(console).toJSON().get("Resources"));
        GamefleetStack containers = checked(ContainerGroupsStackTest.withContainers());
        containerAnnotations = Annotations.fromStack(containers);
        containerResources = cast(Template.fromStack(containers).toJSON().get("Resources"));
        // Two syntheses: a second one of the same stack makes CDK's cluster add its capacity provider
        // associations again once it has a default strategy ("already a Construct with name").
        instanceAnnotations = Annotations.fromStack(checked(ContainerInstancesStackTest.withContainerInstances()));
        instanceResources = cast(Template.fromStack(checked(ContainerInstancesStackTest.withContainerInstances()))
                .toJSON().get("Resources"));
    }

    private static GamefleetStack checked(Map<String, Object> context) {
        GamefleetStack stack = TestApps.stack(temp, context, "Gamefleet");
        GamefleetApp.applyChecks((App) stack.getNode().getScope(), false);
        return stack;
    }

    @Test
    void noUnsuppressedErrors() {
        for (Annotations checked : List.of(annotations, peeredAnnotations, consoleAnnotations, containerAnnotations,
                instanceAnnotations)) {
            List<SynthesisMessage> errors = checked.findError("*", Match.stringLikeRegexp("AwsSolutions-.*"));
            assertThat(errors.stream().map(NagChecksTest::describe).toList()).isEmpty();
        }
    }

    @Test
    void noUnsuppressedWarnings() {
        for (Annotations checked : List.of(annotations, peeredAnnotations, consoleAnnotations, containerAnnotations,
                instanceAnnotations)) {
            List<SynthesisMessage> warnings = checked.findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*"));
            assertThat(warnings.stream().map(NagChecksTest::describe).toList()).isEmpty();
        }
    }

    /** Only the accepted kinds of finding are suppressed, IAM5 always for named resource strings. */
    @Test
    void suppressionsAreFewNarrowAndExplained() {
        // S1: the agents' archive has no server access logs; APIG4: the push channel's routes after $connect.
        assertThat(suppressedRules(resources)).containsExactlyInAnyOrder("AwsSolutions-L1", "AwsSolutions-IAM5",
                "AwsSolutions-SMG4", "AwsSolutions-SQS3", "AwsSolutions-S1", "AwsSolutions-APIG4");
        // The console's (NagRules): COG3 threat protection's plan, CFR1 no geo restriction, CFR2 no WAF, CFR4
        // the default certificate's TLS policy; S1 its access-log bucket, IAM5 and L1 CDK's BucketDeployment.
        assertThat(suppressedRules(consoleResources)).containsExactlyInAnyOrder("AwsSolutions-L1", "AwsSolutions-IAM5",
                "AwsSolutions-SMG4", "AwsSolutions-SQS3", "AwsSolutions-S1", "AwsSolutions-APIG4", "AwsSolutions-COG3",
                "AwsSolutions-CFR1", "AwsSolutions-CFR2", "AwsSolutions-CFR4");
        // The containers' (NagRules): EC23 the game ports open to players, IAM5 ECS's and ECR's wildcards.
        assertThat(suppressedRules(containerResources)).containsExactlyInAnyOrder("AwsSolutions-L1", "AwsSolutions-IAM5",
                "AwsSolutions-SMG4", "AwsSolutions-SQS3", "AwsSolutions-S1", "AwsSolutions-APIG4", "AwsSolutions-EC23");
        // Their EC2 capacity's (NagRules): AS3 no notification per instance, EC26's failure on a mixed instances policy.
        assertThat(suppressedRules(instanceResources)).containsExactlyInAnyOrder("AwsSolutions-L1", "AwsSolutions-IAM5",
                "AwsSolutions-SMG4", "AwsSolutions-SQS3", "AwsSolutions-S1", "AwsSolutions-APIG4", "AwsSolutions-EC23",
                "AwsSolutions-AS3", "CdkNagValidationFailure");
    }

    private static Set<String> suppressedRules(Map<String, Object> resources) {
        Set<String> ruleIds = new HashSet<>();
        for (Object resource : resources.values()) {
            Map<String, Object> metadata = cast(NagChecksTest.<Map<String, Object>>cast(resource).get("Metadata"));
            if (metadata == null || metadata.get("cdk_nag") == null) {
                continue;
            }
            List<Object> rules = cast(NagChecksTest.<Map<String, Object>>cast(metadata.get("cdk_nag")).get("rules_to_suppress"));
            for (Object r : rules) {
                Map<String, Object> rule = NagChecksTest.<Map<String, Object>>cast(r);
                String id = (String) rule.get("id");
                ruleIds.add(id);
                assertThat((String) rule.get("reason")).as(id).hasSizeGreaterThan(100);
                if (id.equals("AwsSolutions-IAM5")) {
                    assertThat(rule.get("applies_to")).as("IAM5 names the resource strings it accepts").isNotNull();
                }
            }
        }
        return ruleIds;
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object value) {
        return (T) value;
    }

    private static String describe(SynthesisMessage m) {
        String text = String.valueOf(m.getEntry().getData());
        return m.getId() + ": " + (text.length() > 300 ? text.substring(0, 300) : text);
    }
}
