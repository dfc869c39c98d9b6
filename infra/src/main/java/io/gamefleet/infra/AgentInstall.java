package io.gamefleet.infra;

import io.gamefleet.catalog.Role;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.ManagedPolicy;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.s3.BlockPublicAccess;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketEncryption;
import software.amazon.awscdk.services.s3.LifecycleRule;
import software.amazon.awscdk.services.s3.ObjectOwnership;
import software.amazon.awscdk.services.s3.assets.Asset;
import software.constructs.Construct;

/**
 * What an instance's agent needs in AWS besides the APIs: the agent's jar as an S3 asset, and the
 * bucket its logs are archived to. The GAME_SERVER role (and any instance role the deployer adds
 * the policy to) may read that one object and write only under its own session's prefix; ADMIN
 * may read the archive.
 *
 * <p>The prefix is the session's {@code aws:userid}: for an EC2 instance profile session it is
 * {@code <role unique id>:<instance id>} (the session is named after its instance), the one
 * request value IAM substitutes that names the instance. It comes first in the key, so that no
 * wildcard before it lets one instance write under another's prefix.
 */
final class AgentInstall extends Construct {
    /** The policy variable an instance's keys start with (see the class comment). */
    static final String INSTANCE_PREFIX = "${aws:userid}";

    private final Bucket archive;
    private final Asset agentJar;
    private final ManagedPolicy agentPolicy;

    AgentInstall(Construct scope, String id, DeploymentContext context, CallerRoles callerRoles) {
        super(scope, id);
        // SSE-S3: the logs need no key of their own, and a KMS key would cost a request per object
        // written and a kms:GenerateDataKey grant on every instance role.
        archive = Bucket.Builder.create(this, "AgentArchiveBucket")
                .encryption(BucketEncryption.S3_MANAGED)
                .enforceSsl(true)
                .minimumTlsVersion(1.2)
                .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
                .objectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED)
                // Each object is written once by its instance and expires: versions would only keep
                // overwritten copies past the retention the lifecycle rule states.
                .versioned(false)
                .lifecycleRules(List.of(LifecycleRule.builder()
                        .id("ExpireAgentLogs")
                        .expiration(Duration.days(context.agentLogRetentionDays()))
                        .abortIncompleteMultipartUploadAfter(Duration.days(1))
                        .build()))
                .removalPolicy(context.removalPolicy())
                .build();
        NagRules.agentArchive(archive);

        agentJar = Asset.Builder.create(this, "AgentJar").path(context.agentJar().toString()).build();

        agentPolicy = ManagedPolicy.Builder.create(this, "GameServerAgentPolicy")
                .description("Gamefleet agents on game server instances: read the agent's jar, archive logs under "
                        + "the session's own prefix")
                .statements(List.of(
                        PolicyStatement.Builder.create()
                                .sid("ReadAgentJar")
                                .effect(Effect.ALLOW)
                                .actions(List.of("s3:GetObject"))
                                .resources(List.of(agentJarArn()))
                                .build(),
                        PolicyStatement.Builder.create()
                                .sid("ArchiveOwnLogs")
                                .effect(Effect.ALLOW)
                                .actions(List.of("s3:PutObject"))
                                .resources(List.of(instanceObjectsArn()))
                                .build()))
                .build();
        callerRoles.role(Role.GAME_SERVER).addManagedPolicy(agentPolicy);
        NagRules.agentPolicy(agentPolicy, instanceObjectsArn());

        var admin = callerRoles.role(Role.ADMIN);
        admin.addToPrincipalPolicy(PolicyStatement.Builder.create()
                .sid("ListAgentArchive")
                .effect(Effect.ALLOW)
                .actions(List.of("s3:ListBucket"))
                .resources(List.of(archive.getBucketArn()))
                .build());
        admin.addToPrincipalPolicy(PolicyStatement.Builder.create()
                .sid("ReadAgentArchive")
                .effect(Effect.ALLOW)
                .actions(List.of("s3:GetObject"))
                .resources(List.of(archive.arnForObjects("*")))
                .build());
        NagRules.adminArchiveRead(admin, archive.arnForObjects("*"));

        // On the stack, so that the outputs' names are exactly the agents' contract's.
        Stack stack = Stack.of(this);
        CfnOutput.Builder.create(stack, "AgentArchiveBucketName").value(archive.getBucketName())
                .description("The agents' log archive (config key archiveBucket); keys start with the instance "
                        + "session's aws:userid, <role id>:<instance id>")
                .build();
        CfnOutput.Builder.create(stack, "AgentJarS3Uri").value(agentJar.getS3ObjectUrl())
                .description("The agent's jar (s3://bucket/key), which the user-data script installs")
                .build();
        CfnOutput.Builder.create(stack, "AgentJarSha256").value(sha256(context.agentJar()))
                .description("The SHA-256 of the agent's jar, which the user-data script checks the copied jar against"
                        + " (AGENT_JAR_SHA256)")
                .build();
        CfnOutput.Builder.create(stack, "MaxGameServersPerInstance")
                .value(Integer.toString(context.throttling().maxGameServersPerInstance()))
                .description("The most game servers one instance may have registered: the user data writes it into the"
                        + " agent's configuration (MAX_GAME_SERVERS_PER_INSTANCE), which runs no more processes")
                .build();
        CfnOutput.Builder.create(stack, "GameServerAgentPolicyArn").value(agentPolicy.getManagedPolicyArn())
                .description("Attach to instance roles of your own (context instanceRoleArns) that run the agent")
                .build();
    }

    /** The file's SHA-256, in lower-case hex, as {@code sha256sum} prints it. */
    static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the agent jar " + file, e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    Bucket archive() {
        return archive;
    }

    Asset agentJar() {
        return agentJar;
    }

    /** The agent jar's object, and no other object of the assets bucket. */
    String agentJarArn() {
        return agentJar.getBucket().arnForObjects(agentJar.getS3ObjectKey());
    }

    /** Every key under the calling instance session's prefix. */
    String instanceObjectsArn() {
        return archive.arnForObjects(INSTANCE_PREFIX + "/*");
    }
}
