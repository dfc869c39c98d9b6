package io.gamefleet.local.bench;

import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GroupService;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.LaunchTemplate;
import io.gamefleet.local.LocalProfile;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/** What the benchmarks share: a local profile that counts its DynamoDB calls, and ACTIVE groups in it. */
final class Benchmarks {
    private Benchmarks() {}

    /**
     * Counts the DynamoDB calls of the SDK clients it is registered with, and their capacity units:
     * it asks every call for its {@code ConsumedCapacity} (INDEXES) and adds up what comes back.
     * Calls are also counted per operation, as the calling thread names it ({@link #as}).
     */
    static final class DynamoDbCalls implements ExecutionInterceptor {
        private static final ThreadLocal<String> OPERATION = ThreadLocal.withInitial(() -> "other");
        private final AtomicLong count = new AtomicLong();
        private final DoubleAdder writeUnits = new DoubleAdder();
        private final DoubleAdder readUnits = new DoubleAdder();
        private final Map<String, LongAdder> callsByOperation = new ConcurrentHashMap<>();
        private final Map<String, DoubleAdder> writeUnitsByOperation = new ConcurrentHashMap<>();
        /** Each call's time at the client, from the SDK's first hook to its last, per DynamoDB operation. */
        private final Map<String, Latencies> latencyByCall = new ConcurrentHashMap<>();
        private static final ExecutionAttribute<Long> STARTED = new ExecutionAttribute<>("bench.started");
        /** The calling thread's DynamoDB calls so far: their number and their time in nanoseconds, at the client. */
        private static final ThreadLocal<long[]> THREAD_CALLS = ThreadLocal.withInitial(() -> new long[2]);

        /** Names what the calling thread's DynamoDB calls are for, until named again. */
        static void as(String operation) {
            OPERATION.set(operation);
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if ("DynamoDb".equals(attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME))) {
                count.incrementAndGet();
                callsByOperation.computeIfAbsent(OPERATION.get(), k -> new LongAdder()).increment();
                attributes.putAttribute(STARTED, System.nanoTime());
            }
        }

        @Override
        public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
            SdkRequest r = context.request();
            ReturnConsumedCapacity indexes = ReturnConsumedCapacity.INDEXES;
            if (r instanceof UpdateItemRequest u) return u.toBuilder().returnConsumedCapacity(indexes).build();
            if (r instanceof PutItemRequest p) return p.toBuilder().returnConsumedCapacity(indexes).build();
            if (r instanceof DeleteItemRequest d) return d.toBuilder().returnConsumedCapacity(indexes).build();
            if (r instanceof TransactWriteItemsRequest t) return t.toBuilder().returnConsumedCapacity(indexes).build();
            if (r instanceof QueryRequest q) return q.toBuilder().returnConsumedCapacity(indexes).build();
            if (r instanceof GetItemRequest g) return g.toBuilder().returnConsumedCapacity(indexes).build();
            if (r instanceof BatchGetItemRequest b) return b.toBuilder().returnConsumedCapacity(indexes).build();
            return r;
        }

        @Override
        public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
            Long started = attributes.getAttribute(STARTED);
            if (started != null) {
                long[] thread = THREAD_CALLS.get();
                thread[0]++;
                thread[1] += System.nanoTime() - started;
                latencyByCall.computeIfAbsent(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME),
                        k -> new Latencies()).add(System.nanoTime() - started);
            }
            SdkResponse r = context.response();
            List<ConsumedCapacity> capacity = r instanceof UpdateItemResponse u ? single(u.consumedCapacity())
                    : r instanceof PutItemResponse p ? single(p.consumedCapacity())
                    : r instanceof DeleteItemResponse d ? single(d.consumedCapacity())
                    : r instanceof TransactWriteItemsResponse t && t.hasConsumedCapacity() ? t.consumedCapacity()
                    : List.of();
            double writes = capacity.stream().mapToDouble(c -> c.capacityUnits() == null ? 0 : c.capacityUnits()).sum();
            writeUnits.add(writes);
            writeUnitsByOperation.computeIfAbsent(OPERATION.get(), k -> new DoubleAdder()).add(writes);
            List<ConsumedCapacity> reads = r instanceof QueryResponse q ? single(q.consumedCapacity())
                    : r instanceof GetItemResponse g ? single(g.consumedCapacity())
                    : r instanceof BatchGetItemResponse b && b.hasConsumedCapacity() ? b.consumedCapacity()
                    : List.of();
            readUnits.add(reads.stream().mapToDouble(c -> c.capacityUnits() == null ? 0 : c.capacityUnits()).sum());
        }

        private static List<ConsumedCapacity> single(ConsumedCapacity c) {
            return c == null ? List.of() : List.of(c);
        }

        long get() {
            return count.get();
        }

        double writeUnits() {
            return writeUnits.sum();
        }

        double readUnits() {
            return readUnits.sum();
        }

        long calls(String operation) {
            LongAdder a = callsByOperation.get(operation);
            return a == null ? 0 : a.sum();
        }

        double writeUnits(String operation) {
            DoubleAdder a = writeUnitsByOperation.get(operation);
            return a == null ? 0 : a.sum();
        }

        /** The calling thread's DynamoDB calls so far, at the client: subtract two readings. */
        static long threadCalls() {
            return THREAD_CALLS.get()[0];
        }

        /** The time the calling thread's DynamoDB calls took so far, at the client: subtract two readings. */
        static long threadCallNanos() {
            return THREAD_CALLS.get()[1];
        }

        /** The calls' times at the client since the last {@link #reset}, per DynamoDB operation. */
        Map<String, Latencies> latencyByCall() {
            return new java.util.TreeMap<>(latencyByCall);
        }

        void reset() {
            latencyByCall.clear();
            count.set(0);
            writeUnits.reset();
            readUnits.reset();
            callsByOperation.clear();
            writeUnitsByOperation.clear();
        }
    }

    /** Latencies in nanoseconds, from many threads. */
    static final class Latencies {
        private final List<Long> nanos = Collections.synchronizedList(new ArrayList<>());

        void add(long n) {
            nanos.add(n);
        }

        int count() {
            return nanos.size();
        }

        /** The p-th percentile (0 to 1) in milliseconds. */
        double percentile(double p) {
            List<Long> sorted = new ArrayList<>(nanos);
            if (sorted.isEmpty()) {
                return 0;
            }
            Collections.sort(sorted);
            return sorted.get(Math.min(sorted.size() - 1, Math.max(0, (int) Math.ceil(p * sorted.size()) - 1))) / 1e6;
        }
    }

    /** Runs {@code work} on {@code threads} threads at once and waits for all; the first failure is thrown. */
    static void onThreads(int threads, Callable<Void> work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Void>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(work));
            }
            for (Future<Void> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** How many game servers an instance of a benchmark's profile may hold: more than any benchmark registers on one. */
    static final int BENCH_MAX_GAME_SERVERS_PER_INSTANCE = 1_000_000;

    /** A local profile on the given DynamoDB, counting into {@code calls}; see {@link #start(DynamoDbCalls)}. */
    static LocalProfile start(DynamoDbCalls calls, Optional<URI> dynamoDb) {
        return start(List.of(calls), dynamoDb, Duration.ZERO, Duration.ZERO);
    }

    /**
     * A local profile on the given DynamoDB whose functions' clients have {@code interceptors}; the
     * balancer runs every {@code balancerRate} and the simulated fleet moves every second (neither
     * when it is zero), and instances take {@code instanceLaunch} from launch to InService.
     */
    static LocalProfile start(List<ExecutionInterceptor> interceptors, Optional<URI> dynamoDb, Duration balancerRate,
            Duration instanceLaunch) {
        LocalProfile profile = LocalProfile.start(options(interceptors, dynamoDb, balancerRate, instanceLaunch));
        // At Ctrl-C too: its emulators, agents and folder go (closing it again after the benchmark's own close does nothing).
        Runtime.getRuntime().addShutdownHook(new Thread(profile::close, "bench-profile-close"));
        return profile;
    }

    /** What {@link #start(List, Optional, Duration, Duration)} starts a profile with. */
    static LocalProfile.Options options(List<ExecutionInterceptor> interceptors, Optional<URI> dynamoDb,
            Duration balancerRate, Duration instanceLaunch) {
        LocalProfile.Options d = LocalProfile.Options.defaults();
        // The benchmarks hold more game servers on an instance than a stage lets one (a group of one
        // instance, its one shard): an instance's count costs the same whatever it holds.
        return new LocalProfile.Options(0, d.claimTtl(), d.healthTimeout(), balancerRate,
                instanceLaunch, Optional.empty(), dynamoDb, Optional.empty(), d.principals(), d.clock(),
                Duration.ofMillis(20), d.home(), interceptors).withLimits(LocalProfile.Limits.defaults()
                        .withEdgeThrottles(false).withMaxGameServersPerInstance(BENCH_MAX_GAME_SERVERS_PER_INSTANCE));
    }

    /**
     * A local profile on a free port with instances in service at once, short workflow waits and no
     * background schedules (nothing runs that the benchmark does not measure), counting into {@code calls}.
     */
    static LocalProfile start(DynamoDbCalls calls) {
        return start(calls, Optional.empty());
    }

    /** Creates the group and waits (real time: the activation workflow runs) until it is ACTIVE. */
    static void createActive(LocalProfile profile, String group, int minSize, int maxSize, List<String> instanceTypes)
            throws InterruptedException {
        GroupService groups = profile.services().groups();
        groups.create(GameServerGroup.builder().name(group).roleArn("arn:aws:iam::" + LocalAccount.ACCOUNT_ID + ":role/bench")
                .minSize(minSize).maxSize(maxSize).launchTemplate(new LaunchTemplate(null, "bench", null))
                .instanceDefinitions(instanceTypes.stream().map(t -> new InstanceDefinition(t, null)).toList())
                .build());
        Instant deadline = Instant.now().plusSeconds(120);
        while (groups.describe(group).status() != GameServerGroupStatus.ACTIVE) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException(group + " did not become ACTIVE: " + groups.describe(group));
            }
            Thread.sleep(20);
        }
    }
}
