package io.gamefleet.agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * The archive in AWS (config {@code archiveBucket}): an ended process's log folder, with its
 * {@code agent-report.json}, goes to the bucket as one deflated zip ({@link LogZip}), the report's
 * fields as object metadata, at {@code <aws:userid>/<group>/<game server id>.zip}, the keys the
 * instance's role may write: IAM names an instance profile session only by its {@code aws:userid},
 * {@code <role unique id>:<instance id>}, which STS GetCallerIdentity tells. One PutObject per game
 * server: S3 bills requests, and logs compress well. The folder is first staged on the instance's disk
 * (the outbox, {@code <group>/<instance>/<game server id>/} as {@link FolderLogArchive} lays it out),
 * zipped there to {@code <game server id>.zip}, then uploaded on a thread of its own, each request
 * bounded in time and retried: a dead S3 never holds up the replacement of a process. What could not
 * be uploaded stays in the outbox and is tried again every {@link #RETRY_PERIOD} and at the agent's
 * next start; the zip is removed only once S3 has it. Once the instance's end is known (a Spot
 * interruption, the agent's stop), each PutObject, its retries included, is also bounded by the time
 * left until then, and none starts after it.
 */
final class S3LogArchive implements LogArchive {
    /** Below the work directory: what is still to upload, {@code <group>/<instance>/<game server id>/...} or {@code .zip}. */
    static final String OUTBOX = "archive-outbox";
    static final Duration RETRY_PERIOD = Duration.ofMinutes(5);
    /** One request's bound (a stalled S3 gives up after it); the SDK's standard strategy makes 3 attempts. */
    static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(60);
    static final String ZIP = ".zip";

    private final S3Client s3;
    private final Supplier<String> callerUserId;
    private String userId;
    private final String bucket;
    private final Path outbox;
    private final FolderLogArchive staging;
    private final Clock clock;
    private final AgentLog log;
    /** The instance's end, once known: no upload goes on past it. */
    private volatile Instant endBy;
    /** The ended processes' uploads not done yet (what a stopping agent waits for). */
    private final AtomicInteger queued = new AtomicInteger();
    private final ScheduledExecutorService uploader = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "log-archive");
        t.setDaemon(true);
        return t;
    });

    /** {@code callerUserId}: the session's {@code aws:userid} ({@link #callerUserId(StsClient)}), asked at the first upload. */
    S3LogArchive(S3Client s3, Supplier<String> callerUserId, String bucket, Path outbox, String groupName, String instanceId,
            long maxBytes, Clock clock, AgentLog log) {
        this.clock = clock;
        this.s3 = s3;
        this.callerUserId = callerUserId;
        this.bucket = bucket;
        this.outbox = outbox;
        this.staging = new FolderLogArchive(outbox, groupName, instanceId, maxBytes, log);
        this.log = log;
    }

    /** The client the agent uploads with: the instance's credentials, through the url-connection client. */
    static S3Client client(String region, AwsCredentialsProvider credentials) {
        return builder(ATTEMPT_TIMEOUT).region(Region.of(region)).credentialsProvider(credentials).build();
    }

    /** GetCallerIdentity's {@code UserId}, with the instance's credentials (it needs no permission). */
    static Supplier<String> callerUserId(StsClient sts) {
        return () -> sts.getCallerIdentity().userId();
    }

    static StsClient sts(String region, AwsCredentialsProvider credentials) {
        return StsClient.builder().region(Region.of(region)).credentialsProvider(credentials)
                .httpClientBuilder(UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofSeconds(2))
                        .socketTimeout(Duration.ofSeconds(10)))
                .overrideConfiguration(o -> o.apiCallTimeout(Duration.ofSeconds(30))).build();
    }

    /** Every bound of one upload: a connect, a stalled read, an attempt, and the call with its retries. */
    static S3ClientBuilder builder(Duration attemptTimeout) {
        return S3Client.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofSeconds(2))
                        .socketTimeout(attemptTimeout))
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.standardRetryStrategy())
                        .apiCallAttemptTimeout(attemptTimeout)
                        .apiCallTimeout(attemptTimeout.multipliedBy(4)));
    }

    /** Uploads what an earlier run left in the outbox now, then again every {@code period}. */
    S3LogArchive retryingEvery(Duration period) {
        uploader.scheduleWithFixedDelay(this::uploadPending, 0, period.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    @Override
    public void archive(ServerRecord s) {
        if (staging.stage(s)) {
            queued.incrementAndGet();
            upload(staging.folderOf(s.gameServerId)).whenComplete((done, failed) -> queued.decrementAndGet());
        }
    }

    @Override
    public void endBy(Instant end) {
        endBy = end;
    }

    @Override
    public boolean idle() {
        return queued.get() == 0;
    }

    /** Uploads one staged folder in the background; true once it is all in the bucket. */
    CompletableFuture<Boolean> upload(Path folder) {
        return CompletableFuture.supplyAsync(() -> uploadNow(folder), uploader);
    }

    /** Every folder of the outbox, as at start; true when none is left. */
    CompletableFuture<Boolean> uploadPendingInBackground() {
        return CompletableFuture.supplyAsync(this::uploadPending, uploader);
    }

    private boolean uploadPending() {
        List<Path> staged;
        try (Stream<Path> walk = Files.exists(outbox) ? Files.walk(outbox, 3) : Stream.empty()) {
            // A game server's folder, its zip, or both (an agent stopped while zipping): each once.
            staged = walk.filter(p -> outbox.relativize(p).getNameCount() == 3)
                    .filter(p -> Files.isDirectory(p) || p.getFileName().toString().endsWith(ZIP))
                    .map(p -> Files.isDirectory(p) ? p : p.resolveSibling(gameServerId(p)))
                    .distinct().toList();
        } catch (IOException | UncheckedIOException e) {
            log.warn("log archive: cannot read the outbox " + outbox + ": " + e.getMessage());
            return false;
        }
        boolean all = true;
        for (Path folder : staged) {
            all &= uploadNow(folder);
        }
        return all;
    }

    /** Zips a staged folder unless done, then puts the zip; true once S3 has it. */
    private boolean uploadNow(Path folder) {
        Path zip = folder.resolveSibling(folder.getFileName() + ZIP);
        String gameServerId = folder.getFileName().toString();
        try {
            if (Files.isDirectory(folder)) {
                long logBytes = size(folder);
                int files = LogZip.write(folder, zip);
                LogFolderCopy.deleteTree(folder);
                log.info(gameServerId + ": " + files + " files, " + logBytes + " bytes zipped to " + Files.size(zip) + " bytes");
            }
            if (!Files.exists(zip)) {
                return true; // uploaded by an earlier pass
            }
            if (userId == null) {
                userId = callerUserId.get();
            }
            String key = userId + "/" + outbox.relativize(folder).getName(0) + "/" + gameServerId + ZIP;
            Map<String, String> metadata = LogZip.metadata(zip);
            Duration left = endBy == null ? null : Duration.between(clock.instant(), endBy);
            if (left != null && (left.isNegative() || left.isZero())) {
                log.warn(gameServerId + ": the instance's end has come: the logs are not uploaded; kept in " + zip);
                return false;
            }
            s3.putObject(b -> {
                b.bucket(bucket).key(key).contentType("application/zip").metadata(metadata);
                if (left != null && left.compareTo(ATTEMPT_TIMEOUT.multipliedBy(4)) < 0) {
                    b.overrideConfiguration(o -> o.apiCallTimeout(left));
                }
            }, RequestBody.fromFile(zip));
            Files.delete(zip);
            log.info(gameServerId + ": logs archived to s3://" + bucket + "/" + key);
            return true;
        } catch (SdkException | IOException | UncheckedIOException e) {
            log.warn(gameServerId + ": cannot upload the logs to s3://" + bucket + " (" + e.getMessage()
                    + "); kept in " + (Files.isDirectory(folder) ? folder : zip) + ", tried again within "
                    + RETRY_PERIOD.toMinutes() + " min and at the agent's next start");
            return false;
        }
    }

    private static String gameServerId(Path zip) {
        String name = zip.getFileName().toString();
        return name.substring(0, name.length() - ZIP.length());
    }

    private static long size(Path folder) throws IOException {
        try (Stream<Path> walk = Files.walk(folder)) {
            return walk.filter(f -> Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    @Override
    public void close() {
        uploader.shutdownNow();
        s3.close();
    }
}
