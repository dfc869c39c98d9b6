package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The S3 archive against LocalStack's S3 (Testcontainers): the object, its key, metadata and bytes as
 * a real S3 implementation stores them, the SDK's checksummed chunked upload included. Skipped, with
 * the reason, without Docker; {@code -Dgamefleet.localstack.image=...} picks another image, as in the
 * other modules.
 */
class S3LogArchiveLocalStackTest {
    private static LocalStackContainer localStack;
    private static S3Client s3;

    @TempDir
    Path work;

    @BeforeAll
    static void localStack() {
        Assumptions.assumeTrue(DockerClientFactory.instance().isDockerAvailable(),
                "Testcontainers found no Docker engine: the S3 archive's LocalStack test is skipped (S3LogArchiveTest "
                        + "runs it against a recording endpoint)");
        localStack = new LocalStackContainer(DockerImageName.parse(System.getProperty("gamefleet.localstack.image",
                "localstack/localstack:4")).asCompatibleSubstituteFor("localstack/localstack"))
                .withServices(LocalStackContainer.Service.S3);
        localStack.start();
        s3 = S3LogArchive.builder(Duration.ofSeconds(10)).region(Region.of(localStack.getRegion()))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        localStack.getAccessKey(), localStack.getSecretKey())))
                .endpointOverride(localStack.getEndpoint()).forcePathStyle(true).build();
        s3.createBucket(b -> b.bucket(S3LogArchiveTest.BUCKET));
    }

    @AfterAll
    static void stop() {
        if (localStack != null) {
            localStack.stop();
        }
    }

    @Test
    void aGameServerIsOneZipObjectUnderTheContractsKeyWithHowItEndedAsMetadata() throws Exception {
        ServerRecord s = new ServerRecord(0, "gs-1", "secret", work.resolve("servers/gs-1"), Instant.parse("2026-12-01T10:00:00Z"));
        Files.createDirectories(s.logFolder());
        Files.writeString(s.logFolder().resolve("PF_ConsoleLogs.txt"), "MATCH OVER\n");
        s.endedAt = Instant.parse("2026-12-01T10:30:00Z");
        s.exitCode = 3;
        S3LogArchive archive = new S3LogArchive(s3, () -> S3LogArchiveTest.USER_ID, S3LogArchiveTest.BUCKET,
                work.resolve(S3LogArchive.OUTBOX), "arena", "i-1",
                AgentConfig.DEFAULT_ARCHIVE_MAX_BYTES, Clock.systemUTC(), new AgentLog(Clock.systemUTC(), System.err::println));
        archive.archive(s);
        assertThat(archive.uploadPendingInBackground().get(60, TimeUnit.SECONDS)).isTrue();

        String key = S3LogArchiveTest.USER_ID + "/arena/gs-1.zip";
        assertThat(s3.listObjectsV2(b -> b.bucket(S3LogArchiveTest.BUCKET).prefix(S3LogArchiveTest.USER_ID + "/arena/")).contents())
                .extracting(o -> o.key()).containsExactly(key);
        assertThat(s3.headObject(b -> b.bucket(S3LogArchiveTest.BUCKET).key(key)).metadata())
                .containsEntry("exit-code", "3").containsEntry("ended-at", "2026-12-01T10:30:00Z");
        Map<String, String> entries = new HashMap<>();
        try (ZipInputStream zip = new ZipInputStream(s3.getObject(b -> b.bucket(S3LogArchiveTest.BUCKET).key(key)))) {
            for (ZipEntry e; (e = zip.getNextEntry()) != null; ) {
                entries.put(e.getName(), new String(zip.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        assertThat(entries).containsEntry("PF_ConsoleLogs.txt", "MATCH OVER\n");
        assertThat(entries.get(LogArchive.REPORT)).contains("\"exitCode\" : 3");
    }
}
