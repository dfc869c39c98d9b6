package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.catalog.Role;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * What the agents need besides the APIs (AgentInstall): the log archive bucket, the agent's jar
 * asset, and who may write, read and install from them.
 */
class AgentInstallStackTest extends SynthesizedStack {
    @Test
    void theArchiveIsEncryptedPrivateTlsOnlyUnversionedAndExpires() {
        Map<String, Object> bucket = props(resources.get(archiveId()));
        assertThat(String.valueOf(bucket.get("BucketEncryption"))).contains("SSEAlgorithm=AES256");
        assertThat(map(bucket.get("PublicAccessBlockConfiguration"))).containsEntry("BlockPublicAcls", true)
                .containsEntry("BlockPublicPolicy", true).containsEntry("IgnorePublicAcls", true)
                .containsEntry("RestrictPublicBuckets", true);
        assertThat(String.valueOf(bucket.get("OwnershipControls"))).contains("BucketOwnerEnforced");
        assertThat(bucket).doesNotContainKey("VersioningConfiguration");
        assertThat(expiry(template)).isEqualTo(DeploymentContext.DEFAULT_AGENT_LOG_RETENTION_DAYS);
        assertThat(String.valueOf(map(bucket.get("LifecycleConfiguration")).get("Rules")))
                .contains("AbortIncompleteMultipartUpload={DaysAfterInitiation=1}");
        // Retained by default, as the tables are: context removalPolicy decides.
        assertThat(resources.get(archiveId())).containsEntry("DeletionPolicy", "Retain");

        String policy = String.valueOf(props(resources.get(idWhere("AWS::S3::BucketPolicy", "Bucket",
                ref(archiveId())))).get("PolicyDocument"));
        assertThat(policy).contains("aws:SecureTransport=false", "s3:TlsVersion=1.2", "Effect=Deny");
    }

    @Test
    void contextSetsTheRetentionInDaysAndRefusesNone() {
        assertThat(expiry(Template.fromStack(stack(Map.of(DeploymentContext.AGENT_LOG_RETENTION_DAYS, 7))))).isEqualTo(7);
        assertThatThrownBy(() -> stack(Map.of(DeploymentContext.AGENT_LOG_RETENTION_DAYS, 0)))
                .hasMessageContaining(DeploymentContext.AGENT_LOG_RETENTION_DAYS);
        assertThatThrownBy(() -> stack(Map.of(DeploymentContext.AGENT_LOG_RETENTION_DAYS, "a month")))
                .hasMessageContaining(DeploymentContext.AGENT_LOG_RETENTION_DAYS);
    }

    @Test
    void anInstanceSessionMayWriteOnlyUnderItsOwnPrefixAndReadOnlyTheAgentsJar() {
        List<Map<String, Object>> statements = agentPolicyStatements();
        assertThat(statements).hasSize(2);
        Map<String, Object> put = statements.stream().filter(s -> actions(s).contains("s3:PutObject")).findFirst()
                .orElseThrow();
        assertThat(actions(put)).containsExactly("s3:PutObject");
        String putResource = render(resourcesOf(put).get(0));
        assertThat(resourcesOf(put)).hasSize(1);
        assertThat(putResource).isEqualTo("<" + archiveId() + ".Arn>/${aws:userid}/*");

        // IAM substitutes the session's aws:userid, <role id>:<instance id> for an instance profile.
        Pattern own = iamGlob(putResource.replace("<" + archiveId() + ".Arn>", "arn:aws:s3:::archive")
                .replace("${aws:userid}", "AROAGAMESERVER:i-1"));
        assertThat(own.matcher("arn:aws:s3:::archive/AROAGAMESERVER:i-1/arena/gs-1/agent-report.json").matches()).isTrue();
        assertThat(own.matcher("arn:aws:s3:::archive/AROAGAMESERVER:i-1/arena/gs-1/logs/server.log").matches()).isTrue();
        assertThat(own.matcher("arn:aws:s3:::archive/AROAGAMESERVER:i-2/arena/gs-1/agent-report.json").matches())
                .as("another instance's prefix").isFalse();
        assertThat(own.matcher("arn:aws:s3:::archive/arena/AROAGAMESERVER:i-1/gs-1/agent-report.json").matches())
                .as("the prefix comes first: no wildcard before it").isFalse();

        Map<String, Object> read = statements.stream().filter(s -> actions(s).contains("s3:GetObject")).findFirst()
                .orElseThrow();
        assertThat(actions(read)).containsExactly("s3:GetObject");
        assertThat(resourcesOf(read)).hasSize(1);
        String jar = render(resourcesOf(read).get(0));
        assertThat(jar).startsWith("arn:<AWS::Partition>:s3:::cdk-").contains("-assets-${AWS::AccountId}-${AWS::Region}/")
                .endsWith(".jar").doesNotContain("*");
        assertThat(jar).contains(jarKey());

        // The GAME_SERVER role has it, and no other S3 access.
        String gameServerRole = callerRoleId(Role.GAME_SERVER);
        assertThat(render(props(resources.get(gameServerRole)).get("ManagedPolicyArns"))).contains(agentPolicyId());
        assertThat(statementsOfRole(gameServerRole).stream().flatMap(s -> actions(s).stream()))
                .noneMatch(a -> a.startsWith("s3:"));
    }

    @Test
    void adminsMayListAndReadTheArchiveAndMatchmakersMayNot() {
        List<Map<String, Object>> admin = statementsOfRole(callerRoleId(Role.ADMIN));
        assertThat(admin.stream().filter(s -> actions(s).contains("s3:ListBucket"))
                .flatMap(s -> resourcesOf(s).stream()).map(SynthesizedStack::render))
                .containsExactly("<" + archiveId() + ".Arn>");
        assertThat(admin.stream().filter(s -> actions(s).contains("s3:GetObject"))
                .flatMap(s -> resourcesOf(s).stream()).map(SynthesizedStack::render))
                .containsExactly("<" + archiveId() + ".Arn>/*");
        assertThat(admin.stream().flatMap(s -> actions(s).stream()).filter(a -> a.startsWith("s3:")))
                .containsExactlyInAnyOrder("s3:ListBucket", "s3:GetObject");
        assertThat(statementsOfRole(callerRoleId(Role.MATCHMAKER)).stream().flatMap(s -> actions(s).stream()))
                .noneMatch(a -> a.startsWith("s3:"));
    }

    @Test
    void outputsTheBucketTheJarAndThePolicyUnderTheContractsNames() {
        Map<String, Object> outputs = cast(template.toJSON().get("Outputs"));
        assertThat(map(outputs.get("AgentArchiveBucketName")).get("Value")).isEqualTo(ref(archiveId()));
        String uri = render(map(outputs.get("AgentJarS3Uri")).get("Value"));
        assertThat(uri).startsWith("s3://cdk-").endsWith("/" + jarKey());
        assertThat(map(outputs.get("GameServerAgentPolicyArn")).get("Value")).isEqualTo(ref(agentPolicyId()));
        assertThat(map(outputs.get("MaxGameServersPerInstance")).get("Value")).as("the stage's default cap").isEqualTo("16");
    }

    @Test
    void outputsTheJarsSha256AsSha256sumPrintsItForTheUserDataToCheck() throws Exception {
        Map<String, Object> outputs = cast(template.toJSON().get("Outputs"));
        Path jar = TestApps.agentJar(temp);
        String expected = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(java.nio.file.Files.readAllBytes(jar)));
        assertThat(map(outputs.get("AgentJarSha256")).get("Value")).isEqualTo(expected);
        Path known = java.nio.file.Files.write(temp.resolve("known.bin"), new byte[] {1, 2, 3});
        assertThat(AgentInstall.sha256(known)).as("sha256sum of bytes 01 02 03")
                .isEqualTo("039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81");
    }

    @Test
    void theAgentJarIsTheAgentModulesShadedJarUnlessContextSaysOtherwise() {
        assertThat(LambdaJar.defaultAgentPath()).isEqualTo("../agent/target/gamefleet-agent.jar");
        assertThatThrownBy(() -> stack(Map.of(DeploymentContext.AGENT_JAR, temp.resolve("missing-agent.jar").toString())))
                .hasMessageContaining("missing-agent.jar").hasMessageContaining(DeploymentContext.AGENT_JAR)
                .hasMessageContaining("-pl agent");
    }

    // ---- helpers ----

    private String archiveId() {
        return onlyResourceOf("AWS::S3::Bucket");
    }

    private String agentPolicyId() {
        return idWhere("AWS::IAM::ManagedPolicy", "Description", ofType("AWS::IAM::ManagedPolicy").values().stream()
                .map(p -> (String) props(p).get("Description")).filter(d -> d.startsWith("Gamefleet agents"))
                .findFirst().orElseThrow());
    }

    private List<Map<String, Object>> agentPolicyStatements() {
        return listOf(map(props(resources.get(agentPolicyId())).get("PolicyDocument")).get("Statement")).stream()
                .map(SynthesizedStack::map).toList();
    }

    /** The asset's object key: its hash, as the functions' jar differs from it. */
    private String jarKey() {
        Map<String, Object> outputs = cast(template.toJSON().get("Outputs"));
        String uri = render(map(outputs.get("AgentJarS3Uri")).get("Value"));
        String key = uri.substring(uri.lastIndexOf('/') + 1);
        assertThat(key).matches("[0-9a-f]{64}\\.jar");
        String functionsCode = render(map(props(ofType("AWS::Lambda::Function").values().iterator().next())
                .get("Code")).get("S3Key"));
        assertThat(functionsCode).isNotEqualTo(key);
        return key;
    }

    private String callerRoleId(Role role) {
        return ofType("AWS::IAM::Role").entrySet().stream()
                .filter(e -> ("Gamefleet " + role + " callers").equals(props(e.getValue()).get("Description")))
                .map(Map.Entry::getKey).findFirst().orElseThrow();
    }

    private static int expiry(Template template) {
        Map<String, Object> bucket = template.findResources("AWS::S3::Bucket", Map.of()).values().iterator().next();
        List<Object> rules = listOf(map(props(bucket).get("LifecycleConfiguration")).get("Rules"));
        assertThat(rules).hasSize(1);
        assertThat(map(rules.get(0))).containsEntry("Status", "Enabled");
        return ((Number) map(rules.get(0)).get("ExpirationInDays")).intValue();
    }
}
