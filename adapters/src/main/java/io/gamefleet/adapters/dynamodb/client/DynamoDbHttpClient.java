package io.gamefleet.adapters.dynamodb.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.zip.CRC32;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbServiceClientConfiguration;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.CreateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeTimeToLiveRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTimeToLiveResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ListTablesRequest;
import software.amazon.awssdk.services.dynamodb.model.ListTablesResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateTimeToLiveResponse;

/**
 * A DynamoDB client of the SDK's {@link DynamoDbClient} interface and model classes that is made
 * of little: DynamoDB's JSON 1.0 protocol over {@link HttpURLConnection} (kept alive), signed
 * with Signature Version 4 ({@link SigV4}), the request and response objects written and read
 * through their own field declarations ({@link Marshaller}). A fresh JVM's first call loads a
 * few hundred classes fewer than the SDK's client pipeline (endpoint rules, auth schemes,
 * protocol factories, metrics, retry strategies), which is a Lambda cold start's largest part.
 *
 * <p>As the SDK's client does: error answers become the SDK's modeled exceptions ({@link
 * Errors}), with their error code, status code, request id and modeled members (a failed
 * condition's item, a cancelled transaction's reasons); throttling errors, 5xx answers, failed
 * connections and broken or corrupt (CRC32) answers are tried again, up to {@code maxAttempts}
 * in all, after a jittered exponential backoff, while the call's time lasts; each attempt's
 * connection and reads have their own timeouts. Interceptors, when given ({@link Interception}),
 * see {@code beforeExecution}, {@code modifyRequest}, {@code beforeTransmission}, {@code
 * modifyResponse} and {@code afterExecution} as they do in the SDK.
 *
 * <p>Not done: the SDK's clock-skew correction, its retry token bucket, endpoint discovery and
 * account-based endpoints, response compression, and the operations not overridden here (they
 * throw {@link UnsupportedOperationException}, as the interface's defaults do).
 */
public final class DynamoDbHttpClient implements DynamoDbClient {
    static final String TARGET_PREFIX = "DynamoDB_20120810.";
    static final String CONTENT_TYPE = "application/x-amz-json-1.0";
    private static final Set<String> THROTTLING = Set.of("Throttling", "ThrottlingException", "ThrottledException",
            "RequestThrottledException", "TooManyRequestsException", "ProvisionedThroughputExceededException",
            "TransactionInProgressException", "RequestLimitExceeded", "BandwidthLimitExceeded", "LimitExceededException",
            "RequestThrottled", "SlowDown", "PriorRequestNotComplete");
    private static final Set<String> TRANSIENT = Set.of("RequestTimeout", "RequestTimeoutException", "InternalServerError");

    private final URI endpoint;
    private final URL url;
    private final String host;
    private final String region;
    private final AwsCredentialsProvider credentials;
    private final Duration connectTimeout;
    private final Duration socketTimeout;
    private final Duration callTimeout;
    private final int maxAttempts;
    private final Duration baseDelay;
    private final Duration throttledBaseDelay;
    private final List<ExecutionInterceptor> interceptors;
    private final SigV4 signer;

    private DynamoDbHttpClient(Builder b) {
        this.region = Objects.requireNonNull(b.region, "region");
        this.endpoint = b.endpoint != null ? b.endpoint : defaultEndpoint(region);
        try {
            this.url = endpoint.resolve("/").toURL();
        } catch (java.net.MalformedURLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not an HTTP endpoint: " + endpoint, e);
        }
        int port = url.getPort();
        this.host = port == -1 || port == url.getDefaultPort() ? url.getHost() : url.getHost() + ":" + port;
        this.credentials = Objects.requireNonNull(b.credentials, "credentials");
        this.connectTimeout = b.connectTimeout;
        this.socketTimeout = b.socketTimeout;
        this.callTimeout = b.callTimeout;
        this.maxAttempts = b.maxAttempts;
        this.baseDelay = b.baseDelay;
        this.throttledBaseDelay = b.throttledBaseDelay;
        this.interceptors = List.copyOf(b.interceptors);
        this.signer = new SigV4(region, "dynamodb");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** DynamoDB's regional endpoint. */
    static URI defaultEndpoint(String region) {
        return URI.create("https://dynamodb." + region + (region.startsWith("cn-") ? ".amazonaws.com.cn" : ".amazonaws.com"));
    }

    public URI endpoint() {
        return endpoint;
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public void close() {
        // connections belong to the JDK's keep-alive cache
    }

    @Override
    public DynamoDbServiceClientConfiguration serviceClientConfiguration() {
        return DynamoDbServiceClientConfiguration.builder().region(software.amazon.awssdk.regions.Region.of(region))
                .endpointOverride(endpoint).credentialsProvider(credentials).build();
    }

    @Override
    public GetItemResponse getItem(GetItemRequest request) {
        return call("GetItem", request, GetItemResponse::builder);
    }

    @Override
    public PutItemResponse putItem(PutItemRequest request) {
        return call("PutItem", request, PutItemResponse::builder);
    }

    @Override
    public UpdateItemResponse updateItem(UpdateItemRequest request) {
        return call("UpdateItem", request, UpdateItemResponse::builder);
    }

    @Override
    public DeleteItemResponse deleteItem(DeleteItemRequest request) {
        return call("DeleteItem", request, DeleteItemResponse::builder);
    }

    @Override
    public QueryResponse query(QueryRequest request) {
        return call("Query", request, QueryResponse::builder);
    }

    @Override
    public ScanResponse scan(ScanRequest request) {
        return call("Scan", request, ScanResponse::builder);
    }

    @Override
    public BatchGetItemResponse batchGetItem(BatchGetItemRequest request) {
        return call("BatchGetItem", request, BatchGetItemResponse::builder);
    }

    @Override
    public BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest request) {
        return call("BatchWriteItem", request, BatchWriteItemResponse::builder);
    }

    @Override
    public TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest request) {
        return call("TransactWriteItems", request, TransactWriteItemsResponse::builder);
    }

    @Override
    public TransactGetItemsResponse transactGetItems(TransactGetItemsRequest request) {
        return call("TransactGetItems", request, TransactGetItemsResponse::builder);
    }

    @Override
    public CreateTableResponse createTable(CreateTableRequest request) {
        return call("CreateTable", request, CreateTableResponse::builder);
    }

    @Override
    public DeleteTableResponse deleteTable(DeleteTableRequest request) {
        return call("DeleteTable", request, DeleteTableResponse::builder);
    }

    @Override
    public DescribeTableResponse describeTable(DescribeTableRequest request) {
        return call("DescribeTable", request, DescribeTableResponse::builder);
    }

    @Override
    public ListTablesResponse listTables(ListTablesRequest request) {
        return call("ListTables", request, ListTablesResponse::builder);
    }

    @Override
    public UpdateTimeToLiveResponse updateTimeToLive(UpdateTimeToLiveRequest request) {
        return call("UpdateTimeToLive", request, UpdateTimeToLiveResponse::builder);
    }

    @Override
    public DescribeTimeToLiveResponse describeTimeToLive(DescribeTimeToLiveRequest request) {
        return call("DescribeTimeToLive", request, DescribeTimeToLiveResponse::builder);
    }

    /** One answer of an attempt that got one. */
    record Answer(int status, byte[] body, String requestId, String errorType) {}

    @SuppressWarnings("unchecked")
    private <T extends SdkResponse> T call(String operation, SdkRequest request, Supplier<?> responseBuilder) {
        long deadline = System.nanoTime() + callTimeout.toNanos();
        Interception hooks = interceptors.isEmpty() ? null : new Interception(interceptors, operation);
        SdkRequest sent = hooks == null ? request : hooks.beforeExecution(request);
        byte[] payload = Marshaller.toJson((SdkPojo) sent).getBytes(StandardCharsets.UTF_8);
        RuntimeException last = null;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            if (attempt > 1 && !backOff(attempt, last, deadline)) {
                break;
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                break;
            }
            Answer answer;
            try {
                answer = send(operation, payload, remaining, hooks);
            } catch (IOException e) {
                last = SdkClientException.builder().message("Unable to execute HTTP request: " + e.getMessage())
                        .cause(e).build();
                continue;
            }
            if (answer.status() / 100 == 2) {
                T response = Marshaller.fromJson(body(answer), (SdkPojo) responseBuilder.get());
                return hooks == null ? response : (T) hooks.afterExecution(response);
            }
            AwsServiceException error = Errors.exception(answer, body(answer));
            if (!retryable(error)) {
                throw error;
            }
            last = error;
        }
        if (last instanceof SdkClientException e) {
            throw SdkClientException.builder().message(e.getMessage() + " (" + operation + ": no answer within "
                    + callTimeout.toMillis() + " ms and " + maxAttempts + " attempts)").cause(e.getCause()).build();
        }
        throw last != null ? last : SdkClientException.create(operation + ": no attempt fit in the call timeout of "
                + callTimeout.toMillis() + " ms");
    }

    private static Map<String, Object> body(Answer answer) {
        String text = new String(answer.body(), StandardCharsets.UTF_8);
        if (text.isBlank()) {
            return Map.of();
        }
        try {
            Object json = JsonText.parse(text);
            if (json instanceof Map<?, ?>) {
                @SuppressWarnings("unchecked")
                Map<String, Object> map = (Map<String, Object>) json;
                return map;
            }
        } catch (IllegalArgumentException notJson) {
            if (answer.status() / 100 == 2) {
                throw SdkClientException.create("DynamoDB answered " + answer.status() + " with " + notJson.getMessage());
            }
        }
        return Map.of();
    }

    static boolean retryable(AwsServiceException e) {
        int status = e.statusCode();
        String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
        return status == 500 || status == 502 || status == 503 || status == 504 || status == 429
                || (code != null && (THROTTLING.contains(code) || TRANSIENT.contains(code)));
    }

    private static boolean throttling(RuntimeException e) {
        return e instanceof AwsServiceException s && (s.statusCode() == 429 || (s.awsErrorDetails() != null
                && THROTTLING.contains(s.awsErrorDetails().errorCode())));
    }

    /** Sleeps before attempt {@code attempt}: full jitter over an exponential ceiling; false if the call's time would run out. */
    private boolean backOff(int attempt, RuntimeException last, long deadline) {
        long base = (throttling(last) ? throttledBaseDelay : baseDelay).toNanos();
        long ceiling = Math.min(Duration.ofSeconds(20).toNanos(), base << Math.min(attempt - 1, 20));
        long delay = ThreadLocalRandom.current().nextLong(ceiling + 1);
        if (System.nanoTime() + delay >= deadline) {
            return false;
        }
        try {
            Thread.sleep(delay / 1_000_000, (int) (delay % 1_000_000));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw SdkClientException.builder().message("interrupted while waiting to try again").cause(e).build();
        }
    }

    /** One attempt: signs and sends the body, reads the whole answer (so the connection is kept). */
    private Answer send(String operation, byte[] payload, long remainingNanos, Interception hooks) throws IOException {
        AwsCredentials creds = credentials.resolveCredentials();
        SortedMap<String, String> headers = new TreeMap<>();
        headers.put("content-type", CONTENT_TYPE);
        headers.put("host", host);
        headers.put("x-amz-date", amzDate(System.currentTimeMillis()));
        headers.put("x-amz-target", TARGET_PREFIX + operation);
        if (creds instanceof AwsSessionCredentials session) {
            headers.put("x-amz-security-token", session.sessionToken());
        }
        String authorization = signer.authorization("POST", "/", "", headers, payload, headers.get("x-amz-date"),
                creds.accessKeyId(), creds.secretAccessKey());
        if (hooks != null) {
            hooks.beforeTransmission(url, headers, authorization, payload);
        }
        int remainingMillis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, remainingNanos / 1_000_000));
        HttpURLConnection c = (HttpURLConnection) url.openConnection();
        try {
            c.setRequestMethod("POST");
            c.setDoOutput(true);
            c.setUseCaches(false);
            c.setInstanceFollowRedirects(false);
            c.setConnectTimeout((int) Math.min(connectTimeout.toMillis(), remainingMillis));
            c.setReadTimeout((int) Math.min(socketTimeout.toMillis(), remainingMillis));
            c.setFixedLengthStreamingMode(payload.length);
            for (Map.Entry<String, String> h : headers.entrySet()) {
                if (!h.getKey().equals("host")) { // the connection writes Host itself, as signed
                    c.setRequestProperty(h.getKey(), h.getValue());
                }
            }
            c.setRequestProperty("authorization", authorization);
            c.setRequestProperty("accept", "application/json");
            c.setRequestProperty("user-agent", "gamefleet-dynamodb-client");
            try (OutputStream out = c.getOutputStream()) {
                out.write(payload);
            }
            int status = c.getResponseCode();
            byte[] body;
            try (InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream()) {
                body = in == null ? new byte[0] : in.readAllBytes();
            }
            String crc = c.getHeaderField("x-amz-crc32");
            if (crc != null) {
                CRC32 check = new CRC32();
                check.update(body);
                if (Long.parseLong(crc.trim()) != check.getValue()) {
                    throw new IOException("the answer's CRC32 (" + check.getValue() + ") is not the one DynamoDB sent ("
                            + crc.trim() + ")");
                }
            }
            return new Answer(status, body, c.getHeaderField("x-amzn-RequestId"), c.getHeaderField("x-amzn-ErrorType"));
        } catch (NumberFormatException e) {
            c.disconnect();
            throw new IOException("bad x-amz-crc32 header", e);
        } catch (IOException | RuntimeException e) {
            c.disconnect(); // a connection that failed midway is not given to the next request
            throw e;
        }
    }

    /** yyyyMMdd'T'HHmmss'Z' in UTC. */
    static String amzDate(long epochMillis) {
        LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(epochMillis, 1000), 0, ZoneOffset.UTC);
        StringBuilder s = new StringBuilder(16);
        pad(s, t.getYear(), 4);
        pad(s, t.getMonthValue(), 2);
        pad(s, t.getDayOfMonth(), 2);
        s.append('T');
        pad(s, t.getHour(), 2);
        pad(s, t.getMinute(), 2);
        pad(s, t.getSecond(), 2);
        return s.append('Z').toString();
    }

    private static void pad(StringBuilder s, int value, int width) {
        String digits = Integer.toString(value);
        for (int i = digits.length(); i < width; i++) {
            s.append('0');
        }
        s.append(digits);
    }

    /** Made with {@link DynamoDbHttpClient#builder()}: region and credentials are required. */
    public static final class Builder {
        private URI endpoint;
        private String region;
        private AwsCredentialsProvider credentials;
        private Duration connectTimeout = Duration.ofSeconds(2);
        private Duration socketTimeout = Duration.ofSeconds(3);
        private Duration callTimeout = Duration.ofSeconds(8);
        private int maxAttempts = 3;
        private Duration baseDelay = Duration.ofMillis(50);
        private Duration throttledBaseDelay = Duration.ofMillis(500);
        private List<ExecutionInterceptor> interceptors = List.of();

        private Builder() {}

        /** Where to send requests; DynamoDB's regional endpoint when not given. */
        public Builder endpoint(URI endpoint) {
            this.endpoint = endpoint;
            return this;
        }

        public Builder region(String region) {
            this.region = region;
            return this;
        }

        /** Asked for credentials on every attempt (the SDK's providers cache, and refresh expiring ones). */
        public Builder credentialsProvider(AwsCredentialsProvider credentials) {
            this.credentials = credentials;
            return this;
        }

        /** To open a connection. */
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = timeout;
            return this;
        }

        /** Between two reads of an answer. */
        public Builder socketTimeout(Duration timeout) {
            this.socketTimeout = timeout;
            return this;
        }

        /** A call's attempts, their backoffs included, end within it. */
        public Builder callTimeout(Duration timeout) {
            this.callTimeout = timeout;
            return this;
        }

        /** Attempts of a call in all (the first one included). */
        public Builder maxAttempts(int attempts) {
            if (attempts < 1) {
                throw new IllegalArgumentException("maxAttempts must be at least 1, not " + attempts);
            }
            this.maxAttempts = attempts;
            return this;
        }

        /** The backoff before the second attempt is up to twice this, doubling after; throttling errors use theirs. */
        public Builder backoff(Duration baseDelay, Duration throttledBaseDelay) {
            this.baseDelay = baseDelay;
            this.throttledBaseDelay = throttledBaseDelay;
            return this;
        }

        public Builder interceptors(List<ExecutionInterceptor> interceptors) {
            this.interceptors = List.copyOf(interceptors);
            return this;
        }

        public DynamoDbHttpClient build() {
            return new DynamoDbHttpClient(this);
        }
    }

    /** For {@link Errors}: the base of every DynamoDB exception. */
    static DynamoDbException.Builder unmodeled() {
        return DynamoDbException.builder();
    }

    static AwsErrorDetails details(String code, String message) {
        return AwsErrorDetails.builder().errorCode(code).errorMessage(message).serviceName("DynamoDb").build();
    }
}
