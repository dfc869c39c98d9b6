package io.gamefleet.agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
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
 * The archive in AWS (config {@code archiveBucket}): an ended process's log folder and its
 * {@code agent-report.json} go to the bucket under {@code <aws:userid>/<group>/<game server id>/},
 * the keys the instance's role may write: IAM names an instance profile session only by its
 * {@code aws:userid}, {@code <role unique id>:<instance id>}, which STS GetCallerIdentity tells. The
 * folder is first staged on the instance's disk (the outbox, {@code <group>/<instance>/<game server
 * id>/} as {@link FolderLogArchive} lays it out), then uploaded on a thread of its own, each request
 * bounded in time and retried: a dead S3 never holds up the replacement of a process. What could not
 * be uploaded stays in the outbox and is tried again every {@link #RETRY_PERIOD} and at the agent's
 * next start. The report goes last: a game server's {@code agent-report.json} in the bucket means all
 * its logs are there.
 */
final class S3LogArchive implements LogArchive {
    /** Below the work directory: what is still to upload, {@code <group>/<instance>/<game server id>/...}. */
    static final String OUTBOX = "archive-outbox";
    static final Duration RETRY_PERIOD = Duration.ofMinutes(5);
    /** One request's bound (a stalled S3 gives up after it); the SDK's standard strategy makes 3 attempts. */
    static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(60);

    private final S3Client s3;
    private final Supplier<String> callerUserId;
    private String userId;
    private final String bucket;
    private final Path outbox;
    private final FolderLogArchive staging;
    private final AgentLog log;
    private final ScheduledExecutorService uploader = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "log-archive");
        t.setDaemon(true);
        return t;
    });

    /** {@code callerUserId}: the session's {@code aws:userid} ({@link #callerUserId(StsClient)}), asked at the first upload. */
    S3LogArchive(S3Client s3, Supplier<String> callerUserId, String bucket, Path outbox, String groupName, String instanceId,
            AgentLog log) {
        this.s3 = s3;
        this.callerUserId = callerUserId;
        this.bucket = bucket;
        this.outbox = outbox;
        this.staging = new FolderLogArchive(outbox, groupName, instanceId, log);
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
            upload(staging.folderOf(s.gameServerId));
        }
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
        List<Path> folders;
        try (Stream<Path> walk = Files.exists(outbox) ? Files.walk(outbox, 3) : Stream.empty()) {
            folders = walk.filter(p -> outbox.relativize(p).getNameCount() == 3 && Files.isDirectory(p)).toList();
        } catch (IOException | UncheckedIOException e) {
            log.warn("log archive: cannot read the outbox " + outbox + ": " + e.getMessage());
            return false;
        }
        boolean all = true;
        for (Path folder : folders) {
            all &= uploadNow(folder);
        }
        return all;
    }

    private boolean uploadNow(Path folder) {
        if (!Files.isDirectory(folder)) {
            return true; // uploaded by an earlier pass
        }
        try {
            if (userId == null) {
                userId = callerUserId.get();
            }
            List<Path> files;
            try (Stream<Path> walk = Files.walk(folder)) {
                // The report last: once it is in the bucket, all the logs are.
                files = walk.filter(Files::isRegularFile)
                        .sorted(Comparator.comparing((Path f) -> f.equals(folder.resolve(REPORT))).thenComparing(Path::toString))
                        .collect(Collectors.toList());
            }
            for (Path file : files) {
                s3.putObject(b -> b.bucket(bucket).key(key(file)), RequestBody.fromFile(file));
                Files.delete(file); // a retry resumes after the files already in the bucket
            }
            FolderLogArchive.deleteTree(folder);
            log.info(folder.getFileName() + ": logs archived to s3://" + bucket + "/" + key(folder) + "/ (" + files.size() + " files)");
            return true;
        } catch (SdkException | IOException | UncheckedIOException e) {
            log.warn(folder.getFileName() + ": cannot upload the logs to s3://" + bucket + " (" + e.getMessage()
                    + "); kept in " + folder + ", tried again within " + RETRY_PERIOD.toMinutes() + " min and at the agent's next start");
            return false;
        }
    }

    /** The object key of a path {@code <group>/<instance>/<game server id>/...} of the outbox. */
    private String key(Path path) {
        Path relative = outbox.relativize(path);
        return Stream.concat(Stream.of(userId, relative.getName(0).toString()),
                        Stream.iterate(2, i -> i < relative.getNameCount(), i -> i + 1).map(i -> relative.getName(i).toString()))
                .collect(Collectors.joining("/"));
    }

    @Override
    public void close() {
        uploader.shutdownNow();
        s3.close();
    }
}
