package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * The S3 archive against a real HTTP endpoint over a socket: a Jetty handler that records the SDK's
 * PutObject requests (path-style, through an endpoint override), and can answer 500 or stall.
 */
class S3LogArchiveTest {
    static final String BUCKET = "gamefleet-agent-archive";
    /** An instance profile session's aws:userid: the role's unique id, then the instance id. */
    static final String USER_ID = "AROAEXAMPLEROLEID:i-1";

    /**
     * One PutObject as it arrived: its path, its body (aws-chunked: the object's bytes in signed chunks
     * with a CRC32 trailer, which S3 checks), the object's length and its {@code x-amz-meta-*} headers.
     */
    record Put(String path, byte[] body, int decodedLength, Map<String, String> metadata) {
        String text() {
            return new String(body, StandardCharsets.ISO_8859_1);
        }

        /** The object's bytes: a small object is one chunk, after the chunk's header line. */
        byte[] object() {
            int start = text().indexOf("\r\n") + 2;
            return Arrays.copyOfRange(body, start, start + decodedLength);
        }

        /** The zip's entries, by name, each checked to be deflated. */
        Map<String, String> entries() throws IOException {
            Map<String, String> entries = new LinkedHashMap<>();
            try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(object()))) {
                for (ZipEntry e; (e = zip.getNextEntry()) != null; ) {
                    assertThat(e.getMethod()).as(e.getName()).isEqualTo(ZipEntry.DEFLATED);
                    entries.put(e.getName(), new String(zip.readAllBytes(), StandardCharsets.UTF_8));
                }
            }
            return entries;
        }
    }

    @TempDir
    Path work;
    private final List<Put> puts = new CopyOnWriteArrayList<>();
    private final List<String> attempts = new CopyOnWriteArrayList<>();
    private final List<String> logLines = new CopyOnWriteArrayList<>();
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private volatile boolean stall;
    private volatile boolean stsDown;
    private final List<String> stsCalls = new CopyOnWriteArrayList<>();
    private final CountDownLatch stalled = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    /** Counted down by each PutObject S3 took. */
    private final CountDownLatch firstPut = new CountDownLatch(1);
    private final Server server = new Server();
    private URI endpoint;

    @BeforeEach
    void aRecordingS3() throws Exception {
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                String path = Request.getPathInContext(request);
                if (path.equals("/") && request.getMethod().equals("POST")) {
                    return callerIdentity(request, response, callback);
                }
                attempts.add(request.getMethod() + " " + path);
                if (stall) {
                    stalled.countDown();
                    release.await(60, TimeUnit.SECONDS);
                }
                byte[] body = Content.Source.asInputStream(request).readAllBytes();
                if (failuresLeft.getAndDecrement() > 0) {
                    response.setStatus(500);
                    response.write(true, ByteBuffer.wrap(("<Error><Code>InternalError</Code><Message>We encountered an "
                            + "internal error. Please try again.</Message></Error>").getBytes(StandardCharsets.UTF_8)), callback);
                    return true;
                }
                Map<String, String> metadata = new TreeMap<>();
                request.getHeaders().forEach(h -> {
                    if (h.getLowerCaseName().startsWith("x-amz-meta-")) {
                        metadata.put(h.getLowerCaseName(), h.getValue());
                    }
                });
                puts.add(new Put(path, body, Integer.parseInt(request.getHeaders().get("x-amz-decoded-content-length")), metadata));
                firstPut.countDown();
                response.setStatus(200);
                response.getHeaders().put("ETag", "\"0\"");
                callback.succeeded();
                return true;
            }
        });
        server.start();
        endpoint = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    /** STS GetCallerIdentity (Query protocol), as for an instance profile session of instance i-1. */
    private boolean callerIdentity(Request request, Response response, Callback callback) throws java.io.IOException {
        String form = Content.Source.asString(request, StandardCharsets.UTF_8);
        stsCalls.add(form);
        boolean ok = form.contains("Action=GetCallerIdentity") && !stsDown;
        response.setStatus(ok ? 200 : 503);
        response.write(true, ByteBuffer.wrap((ok ? """
                <GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult>
                <Arn>arn:aws:sts::123456789012:assumed-role/GameServer/i-1</Arn><UserId>%s</UserId>
                <Account>123456789012</Account></GetCallerIdentityResult>
                <ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata></GetCallerIdentityResponse>""".formatted(USER_ID)
                : "<ErrorResponse><Error><Code>ServiceUnavailable</Code><Message>down</Message></Error></ErrorResponse>")
                .getBytes(StandardCharsets.UTF_8)), callback);
        return true;
    }

    @AfterEach
    void stop() throws Exception {
        release.countDown();
        server.stop();
    }

    private S3LogArchive archive(Duration attemptTimeout) {
        return archive(attemptTimeout, AgentConfig.DEFAULT_ARCHIVE_MAX_BYTES);
    }

    private S3LogArchive archive(Duration attemptTimeout, long maxBytes) {
        var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret"));
        S3Client s3 = S3LogArchive.builder(attemptTimeout).region(Region.US_EAST_1).credentialsProvider(credentials)
                .endpointOverride(endpoint).forcePathStyle(true).build();
        StsClient sts = StsClient.builder().region(Region.US_EAST_1).credentialsProvider(credentials).endpointOverride(endpoint)
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry())).build();
        return archive(s3, S3LogArchive.callerUserId(sts), maxBytes);
    }

    private S3LogArchive archive(S3Client s3, Supplier<String> callerUserId, long maxBytes) {
        return new S3LogArchive(s3, callerUserId, BUCKET, work.resolve(S3LogArchive.OUTBOX), "arena", "i-1",
                maxBytes, Clock.systemUTC(), new AgentLog(Clock.systemUTC(), logLines::add));
    }

    /** An ended process with a console log and a file in a subfolder of its log folder. */
    private ServerRecord ended(String gameServerId) throws Exception {
        ServerRecord s = new ServerRecord(0, gameServerId, "secret", work.resolve("servers").resolve(gameServerId),
                Instant.parse("2026-12-01T10:00:00Z"));
        Files.createDirectories(s.logFolder().resolve("dumps"));
        Files.writeString(s.logFolder().resolve("PF_ConsoleLogs.txt"), "MATCH OVER\n");
        Files.writeString(s.logFolder().resolve("dumps").resolve("core.txt"), "no core\n");
        s.state = GameState.Active;
        s.endedAt = Instant.parse("2026-12-01T10:30:00Z");
        s.exitCode = 0;
        return s;
    }

    private Path outboxOf(String gameServerId) {
        return work.resolve(S3LogArchive.OUTBOX).resolve("arena").resolve("i-1").resolve(gameServerId);
    }

    private Path zipOf(String gameServerId) {
        return outboxOf(gameServerId).resolveSibling(gameServerId + S3LogArchive.ZIP);
    }

    private static final String KEY = "/" + BUCKET + "/" + USER_ID + "/arena/gs-1.zip";

    @Test
    void aGameServerIsOnePutOfADeflatedZipOfItsLogsAndReportWithHowItEndedAsMetadata() throws Exception {
        try (S3LogArchive archive = archive(Duration.ofSeconds(10))) {
            ServerRecord s = ended("gs-1");
            s.stopReason = "exited";
            archive.archive(s);
            assertThat(archive.uploadPendingInBackground().get(30, TimeUnit.SECONDS)).isTrue();

            assertThat(puts).extracting(Put::path).containsExactly(KEY);
            Put put = puts.get(0);
            assertThat(put.text()).contains("x-amz-checksum-crc32:");
            Map<String, String> entries = put.entries();
            assertThat(entries).containsOnlyKeys(LogArchive.REPORT, "PF_ConsoleLogs.txt", "dumps/core.txt")
                    .containsEntry("PF_ConsoleLogs.txt", "MATCH OVER\n").containsEntry("dumps/core.txt", "no core\n");
            assertThat(entries.keySet()).as("the report first: unzip -p reads it alone").first().isEqualTo(LogArchive.REPORT);
            assertThat(entries.get(LogArchive.REPORT)).contains("\"gameServerId\" : \"gs-1\"", "\"lastState\" : \"Active\"",
                    "\"exitCode\" : 0");
            assertThat(put.metadata()).containsExactlyInAnyOrderEntriesOf(Map.of("x-amz-meta-exit-code", "0",
                    "x-amz-meta-last-state", "Active", "x-amz-meta-stop-reason", "exited",
                    "x-amz-meta-ended-at", "2026-12-01T10:30:00Z"));
            assertThat(s.folder).doesNotExist();
            assertThat(outboxOf("gs-1")).doesNotExist();
            assertThat(zipOf("gs-1")).doesNotExist();
            int logBytes = entries.values().stream().mapToInt(e -> e.getBytes(StandardCharsets.UTF_8).length).sum();
            assertThat(logLines).anyMatch(l -> l.contains("gs-1: 3 files, " + logBytes + " bytes zipped to "))
                    .anyMatch(l -> l.contains("gs-1: logs archived to s3://" + BUCKET + "/" + USER_ID + "/arena/gs-1.zip"));
        }
    }

    @Test
    void anUnknownExitCodeIsNoMetadataAndALongLogIsDeflatedSmall() throws Exception {
        try (S3LogArchive archive = archive(Duration.ofSeconds(10))) {
            ServerRecord s = ended("gs-1");
            s.exitCode = null;
            String log = "2026-12-01T10:00:00.000Z INFO  tick: 12 players, 60 Hz, state Active\n".repeat(1_000);
            Files.writeString(s.logFolder().resolve("PF_ConsoleLogs.txt"), log);
            archive.archive(s);
            assertThat(archive.uploadPendingInBackground().get(30, TimeUnit.SECONDS)).isTrue();

            assertThat(puts.get(0).metadata()).doesNotContainKey("x-amz-meta-exit-code").containsKey("x-amz-meta-last-state");
            assertThat(puts.get(0).entries()).containsEntry("PF_ConsoleLogs.txt", log);
            assertThat(puts.get(0).decodedLength()).as("deflated").isLessThan(log.length() / 10);
        }
    }

    @Test
    void aLinkToTheAgentsEnvironmentUploadsNothingOfItsAndAnOversizeLogIsCutAsTheReportSays() throws Exception {
        Path agentFile = Files.writeString(work.resolve("agent-state.json"), "agent-secret-0f1e2d3c");
        try (S3LogArchive archive = archive(Duration.ofSeconds(10), 1000)) {
            ServerRecord s = ended("gs-1");
            Files.createSymbolicLink(s.logFolder().resolve("environ"), Path.of("/proc/self/environ"));
            Files.createSymbolicLink(s.logFolder().resolve("state.json"), agentFile);
            Files.writeString(s.logFolder().resolve("PF_ConsoleLogs.txt"), "x".repeat(5000) + "CRASH");
            archive.archive(s);
            assertThat(archive.uploadPendingInBackground().get(30, TimeUnit.SECONDS)).isTrue();

            Map<String, String> entries = puts.get(0).entries();
            assertThat(entries).containsOnlyKeys(LogArchive.REPORT, "PF_ConsoleLogs.txt");
            assertThat(String.join("", entries.values())).doesNotContain("agent-secret").doesNotContain("PATH=");
            assertThat(entries.get("PF_ConsoleLogs.txt")).hasSize(1000).endsWith("CRASH");
            assertThat(entries.get(LogArchive.REPORT)).contains("\"path\" : \"PF_ConsoleLogs.txt\"", "\"size\" : 5005",
                    "\"path\" : \"dumps/core.txt\"", "\"reason\" : \"the archive's cap of 1000 bytes (archiveMaxBytes) was reached\"",
                    "\"path\" : \"environ\"", "\"reason\" : \"a symbolic link to /proc/self/environ\"",
                    "\"reason\" : \"a symbolic link to " + agentFile + "\"");
        }
    }

    @Test
    void aFiveHundredIsRetriedAndTheUploadGoesThrough() throws Exception {
        failuresLeft.set(2);
        try (S3LogArchive archive = archive(Duration.ofSeconds(10))) {
            archive.archive(ended("gs-1"));
            assertThat(archive.uploadPendingInBackground().get(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(attempts).containsExactly("PUT " + KEY, "PUT " + KEY, "PUT " + KEY);
        assertThat(puts).hasSize(1);
        assertThat(zipOf("gs-1")).doesNotExist();
    }

    @Test
    void anS3ThatKeepsFailingLeavesTheZipWhichTheNextStartUploads() throws Exception {
        failuresLeft.set(Integer.MAX_VALUE);
        try (S3LogArchive archive = archive(Duration.ofSeconds(10))) {
            ServerRecord s = ended("gs-1");
            archive.archive(s);
            assertThat(archive.uploadPendingInBackground().get(30, TimeUnit.SECONDS)).isFalse();
            assertThat(s.folder).as("the process's folder is cleared: the slot starts afresh").doesNotExist();
            assertThat(outboxOf("gs-1")).as("zipped once").doesNotExist();
            assertThat(zipOf("gs-1")).isNotEmptyFile();
            assertThat(puts).isEmpty();
            assertThat(logLines).anyMatch(l -> l.contains("WARN gs-1: cannot upload the logs to s3://" + BUCKET + " (")
                    && l.contains("kept in " + zipOf("gs-1")));
            assertThat(archive.upload(outboxOf("gs-1")).get(30, TimeUnit.SECONDS)).as("one more try, as failed").isFalse();
        }

        failuresLeft.set(0);
        try (S3LogArchive restarted = archive(Duration.ofSeconds(10))) {
            assertThat(restarted.uploadPendingInBackground().get(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(puts).extracting(Put::path).containsExactly(KEY);
        assertThat(puts.get(0).entries()).containsKeys(LogArchive.REPORT, "PF_ConsoleLogs.txt");
        assertThat(zipOf("gs-1")).doesNotExist();
    }

    @Test
    void aFolderLeftUnzippedByAStoppedAgentIsZippedAgainAndUploadedOnce() throws Exception {
        // As an agent stopped after staging, before its zip was in place: the folder and a partial zip.
        Files.createDirectories(outboxOf("gs-1"));
        Files.writeString(outboxOf("gs-1").resolve("PF_ConsoleLogs.txt"), "MATCH OVER\n");
        Files.writeString(outboxOf("gs-1").resolve(LogArchive.REPORT), "{\"gameServerId\":\"gs-1\",\"lastState\":\"Active\"}");
        Files.writeString(zipOf("gs-1").resolveSibling("gs-1.zip.partial"), "PK truncated");
        try (S3LogArchive restarted = archive(Duration.ofSeconds(10))) {
            assertThat(restarted.uploadPendingInBackground().get(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(puts).extracting(Put::path).containsExactly(KEY);
        assertThat(puts.get(0).entries()).containsEntry("PF_ConsoleLogs.txt", "MATCH OVER\n");
        assertThat(puts.get(0).metadata()).containsEntry("x-amz-meta-last-state", "Active");
        assertThat(outboxOf("gs-1").getParent()).isEmptyDirectory();
    }

    @Test
    void theKeysBeginWithTheSessionsUserIdAskedOnceOfStsAndAnStsDownIsTriedAgainLikeS3() throws Exception {
        stsDown = true;
        try (S3LogArchive archive = archive(Duration.ofSeconds(10))) {
            archive.archive(ended("gs-1"));
            assertThat(archive.uploadPendingInBackground().get(30, TimeUnit.SECONDS)).isFalse();
            assertThat(zipOf("gs-1")).exists();
            assertThat(logLines).anyMatch(l -> l.contains("WARN gs-1: cannot upload the logs"));
            stsDown = false;
            int failedCalls = stsCalls.size();
            assertThat(archive.uploadPendingInBackground().get(30, TimeUnit.SECONDS)).isTrue();
            archive.archive(ended("gs-2"));
            assertThat(archive.uploadPendingInBackground().get(30, TimeUnit.SECONDS)).isTrue();
            assertThat(puts).extracting(Put::path).containsExactlyInAnyOrder(KEY, "/" + BUCKET + "/" + USER_ID + "/arena/gs-2.zip");
            assertThat(stsCalls).as("asked once, once it answers").hasSize(failedCalls + 1);
        }
    }

    @Test
    void aStalledS3IsGivenUpOnInBoundedTimeAndNeverHoldsTheSupervisor() throws Exception {
        stall = true;
        try (S3LogArchive archive = archive(Duration.ofMillis(300))) {
            ServerRecord s = ended("gs-1");
            archive.archive(s); // returns with the upload still to do: the supervisor replaces the process meanwhile
            assertThat(stalled.await(30, TimeUnit.SECONDS)).as("the upload reached the stalled S3").isTrue();

            assertThat(archive.uploadPendingInBackground().get(30, TimeUnit.SECONDS)).isFalse();
            assertThat(release.getCount()).as("the S3 was still stalled: the bound is the agent's").isEqualTo(1);
            assertThat(zipOf("gs-1")).exists();
            assertThat(puts).isEmpty();
        }
    }

    @Test
    void anUploadOfAFolderAnEarlierPassTookIsDoneAndPutsNothingAgain() throws Exception {
        try (S3LogArchive archive = archive(Duration.ofSeconds(10))) {
            archive.archive(ended("gs-1"));
            assertThat(archive.uploadPendingInBackground().get(30, TimeUnit.SECONDS)).isTrue();
            assertThat(archive.upload(outboxOf("gs-1")).get(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(puts).extracting(Put::path).containsExactly(KEY);
    }

    @Test
    void whatAnEarlierRunLeftInTheOutboxIsUploadedAtStartUnasked() throws Exception {
        Files.createDirectories(outboxOf("gs-1"));
        Files.writeString(outboxOf("gs-1").resolve(GameServerLaunch.CONSOLE_LOG), "staged by an earlier run\n");
        try (S3LogArchive restarted = archive(Duration.ofSeconds(10)).retryingEvery(Duration.ofHours(1))) {
            assertThat(firstPut.await(30, TimeUnit.SECONDS)).as("put without a call").isTrue();
            assertThat(restarted.uploadPendingInBackground().get(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(puts).extracting(Put::path).containsExactly(KEY);
        assertThat(puts.get(0).entries()).containsEntry(GameServerLaunch.CONSOLE_LOG, "staged by an earlier run\n");
        assertThat(zipOf("gs-1")).doesNotExist();
    }

    @Test
    void theUploadsRunOnADaemonThreadOfTheirOwnAndCloseLetsGoOfTheClient() throws Exception {
        List<Thread> putOn = new CopyOnWriteArrayList<>();
        AtomicBoolean closed = new AtomicBoolean();
        S3Client s3 = new S3Client() {
            @Override
            public PutObjectResponse putObject(PutObjectRequest request, RequestBody body) {
                putOn.add(Thread.currentThread());
                return PutObjectResponse.builder().build();
            }

            @Override
            public String serviceName() {
                return SERVICE_NAME;
            }

            @Override
            public void close() {
                closed.set(true);
            }
        };
        S3LogArchive archive = archive(s3, () -> USER_ID, AgentConfig.DEFAULT_ARCHIVE_MAX_BYTES);
        archive.archive(ended("gs-1"));
        assertThat(archive.uploadPendingInBackground().get(30, TimeUnit.SECONDS)).isTrue();
        assertThat(putOn).singleElement().satisfies(t -> {
            assertThat(t.getName()).isEqualTo("log-archive");
            assertThat(t.isDaemon()).as("a stalled upload never holds the agent's JVM from exiting").isTrue();
        });
        archive.close();
        assertThat(closed).isTrue();
    }

    @Test
    void theAgentsClientsAreInItsRegionAndBoundInTime() {
        var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret"));
        try (S3Client s3 = S3LogArchive.client("eu-west-1", credentials); StsClient sts = S3LogArchive.sts("eu-west-1", credentials)) {
            assertThat(s3.serviceClientConfiguration().region()).isEqualTo(Region.EU_WEST_1);
            assertThat(s3.serviceClientConfiguration().overrideConfiguration().apiCallAttemptTimeout())
                    .hasValue(S3LogArchive.ATTEMPT_TIMEOUT);
            assertThat(sts.serviceClientConfiguration().region()).isEqualTo(Region.EU_WEST_1);
            assertThat(sts.serviceClientConfiguration().overrideConfiguration().apiCallTimeout()).hasValue(Duration.ofSeconds(30));
        }
    }

    @Test
    void onceTheInstancesEndHasComeNoUploadStartsAndTheLogsStayInTheOutbox() throws Exception {
        try (S3LogArchive archive = archive(Duration.ofSeconds(10))) {
            archive.endBy(Instant.now().minusSeconds(1));
            archive.archive(ended("gs-1"));
            ChildJvm.await("the upload given up", archive::idle);
            assertThat(puts).isEmpty();
            assertThat(zipOf("gs-1")).exists();
            assertThat(logLines).anyMatch(l -> l.contains("gs-1: the instance's end has come: the logs are not uploaded; kept in "));
        }
    }

    @Test
    void aStalledUploadIsCutAtTheInstancesEndNotAtItsOwnTimeouts() throws Exception {
        stall = true;
        try (S3LogArchive archive = archive(Duration.ofSeconds(60))) { // alone, it would wait 60 s, 4 times over
            archive.endBy(Instant.now().plusSeconds(2));
            archive.archive(ended("gs-1"));
            assertThat(stalled.await(30, TimeUnit.SECONDS)).as("the upload reached the stalled S3").isTrue();
            ChildJvm.await("the upload cut at the instance's end", archive::idle);
            assertThat(release.getCount()).as("the S3 was still stalled: the bound is the instance's end").isEqualTo(1);
            assertThat(zipOf("gs-1")).exists();
            assertThat(puts).isEmpty();
        }
    }
}
