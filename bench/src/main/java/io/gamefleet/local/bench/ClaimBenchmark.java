package io.gamefleet.local.bench;

import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.catalog.Tables;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.GameServerService;
import io.gamefleet.domain.GameServerService.Claim;
import io.gamefleet.domain.GameServerService.Registration;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.local.LocalProfile;
import io.gamefleet.local.process.ChildProcess;
import io.gamefleet.local.process.Emulators;
import io.gamefleet.wiring.AwsServices;
import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Claims measured against the floor, in one run on one emulator (dynoxide) with one DynamoDB
 * client, the functions' own ({@link AwsServices#dynamoDb}). Not part of {@code mvn verify}; the figures are the emulator's on the machine at hand.
 * Run: {@code java -cp bench/target/gamefleet-bench.jar io.gamefleet.local.bench.ClaimBenchmark [drain|steady] ...}.
 *
 * <ul>
 * <li><b>drain</b> {@code [servers] [edgeServers] [claimers,...]} (3000, 3000, 1,8,32,64): after one unprinted
 *     round of each (the JIT's warm-up), the floor (one conditional
 *     UpdateItem per claim on distinct items, nothing else) and Gamefleet's claims (each group
 *     of {@code servers} AVAILABLE servers claimed until it is out of capacity) at 1, 8, 32 and 64
 *     threads, each pair run back to back: claims/s, their ratio to the floor, DynamoDB calls and
 *     write units per successful claim (counted at the client: every call asks for its
 *     ConsumedCapacity), p50/p99. Then 32 claimers through the local edge server, signed with
 *     SigV4 (what a matchmaker sees), on a group of {@code edgeServers}, beside the floor. Each
 *     row also shows the item floor (the floor's write on registered game servers' items, in
 *     their three indexes, at as many threads) and the claims' ratio to it: the emulator's index
 *     upkeep makes every write on such an item dearer, even one that changes no index key: a line
 *     after the table shows the same write on the same items in GameServers and copied into a
 *     table with no index.</li>
 * <li><b>sparse</b> {@code [interval ms] [claims] [servers,...]} (1000, 10, 10,40,3000): one claim every
 *     {@code interval} ms, on a schedule, for each group size in turn: what a container whose
 *     candidates have aged out pays per claim (as most containers do in AWS, where a matchmaker's
 *     claims spread over many), and the claims' latencies. Each group's maximum size is one instance
 *     per 50 servers (its shards: one per instance, up to 16); its servers are all on one.</li>
 * <li><b>steady</b> {@code [claims/s] [seconds] [servers] [game ms] [heartbeat s]} (200, 20, 1000,
 *     2000, 10): claims arrive at a fixed rate while every claimed server plays and comes back as
 *     a new one, and all servers heartbeat; with {@code -Dbench.edge=true} the claims go through
 *     the local edge, signed with SigV4 ({@link SteadyClaims}).</li>
 * </ul>
 *
 * The functions reach the emulator through {@link CountingProxy}, which counts DynamoDB's calls
 * at the endpoint (the "endpoint calls" columns; the client's own count beside them), unless
 * {@code -Dbench.proxy=false}: then they connect directly, and the floor does either way. The drain's
 * and steady's groups have a maximum size of one instance (so one shard) unless {@code -Dbench.maxSize=N}.
 */
public final class ClaimBenchmark {
    private static final int[] CLAIMERS = {1, 8, 32, 64};

    /** The proxy that counts the functions' DynamoDB calls at the endpoint, or null when they connect directly. */
    private static CountingProxy endpoint;

    private ClaimBenchmark() {}

    /** DynamoDB calls counted at the endpoint so far (0 without the proxy). */
    private static long endpointCalls() {
        return endpoint == null ? 0 : endpoint.requests();
    }

    public static void main(String[] args) throws Exception {
        // Threads beyond five share HttpURLConnection's keep-alive cache of five connections per
        // host otherwise, and open a connection per call: for the floor and the claims alike.
        System.setProperty("http.maxConnections", "100");
        String mode = args.length > 0 ? args[0] : "drain";
        Benchmarks.DynamoDbCalls calls = new Benchmarks.DynamoDbCalls();
        File logs = TemporaryFolders.make("gamefleet-bench-").toFile();
        boolean proxied = Boolean.parseBoolean(System.getProperty("bench.proxy", "true"));
        try (ChildProcess dynamo = Emulators.dynamoDb(Emulators.home(), Optional.empty(), logs);
                CountingProxy proxy = new CountingProxy(dynamo.endpoint());
                LocalProfile profile = Benchmarks.start(calls, Optional.of(proxied ? proxy.endpoint() : dynamo.endpoint()));
                DynamoDbClient floorClient = sameClientAs(dynamo.endpoint(), calls)) {
            endpoint = proxied ? proxy : null;
            Floor floor = new Floor(floorClient);
            if (mode.equals("steady")) {
                new SteadyClaims(profile, calls, endpoint, dynamo.serverProcess()).run(args);
            } else if (mode.equals("sparse")) {
                sparse(profile, calls, args);
            } else {
                drain(profile, calls, floor, args);
            }
        }
    }

    /** The client AwsServices builds for the functions: same client, region, credentials, timeouts and interceptor. */
    private static DynamoDbClient sameClientAs(URI endpoint, Benchmarks.DynamoDbCalls calls) {
        return AwsServices.dynamoDb(endpoint, LocalAccount.REGION,
                StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")), List.of(calls));
    }

    // ---- drain ---------------------------------------------------------------------------

    private static void drain(LocalProfile profile, Benchmarks.DynamoDbCalls calls, Floor floor, String[] args)
            throws Exception {
        int servers = args.length > 1 ? Integer.parseInt(args[1]) : 3000;
        int edgeServers = args.length > 2 ? Integer.parseInt(args[2]) : 3000;
        System.out.printf("drain: %d servers per group; the floor: one conditional UpdateItem per claim on distinct items%n",
                servers);
        warmUp(profile, calls, floor, servers);
        printHeader();
        int[] counts = args.length > 3 ? java.util.Arrays.stream(args[3].split(",")).mapToInt(Integer::parseInt).toArray()
                : CLAIMERS;
        for (int claimers : counts) {
            row(profile, floor, "bench-" + claimers, servers, claimers, group -> claimDirect(profile, calls, group, claimers));
        }
        System.out.printf("%nthe floor with a claim-index entry that each write moves (the emulator's index upkeep):"
                + " %.0f/s at 32 threads, %.0f/s at 1%n", floor.run(32, true), floor.run(1, true));
        prepare(profile, "bench-copied", servers);
        String unindexed = floor.copyIntoTableWithoutIndexes("bench-copied", servers);
        System.out.printf("the item floor on the same items copied into a table with no index: %.0f/s at 32 threads;"
                + " on them in GameServers: %.0f/s%n", floor.onGameServers(unindexed, "bench-copied", servers, 32),
                floor.onGameServers(Tables.GAME_SERVERS.logicalName(), "bench-copied", servers, 32));
        prepare(profile, "bench-writes", servers);
        System.out.printf("Gamefleet's claim writes alone (the repository's conditional UpdateItem, each on a server of its"
                + " own, no candidate reads): %.0f/s at 32 threads%n", floor.claimWritesAlone(profile,
                "bench-writes", servers, 32));
        System.out.printf("%nthrough the edge server, SigV4 (what a matchmaker sees), %d servers:%n", edgeServers);
        printHeader();
        for (int claimers : new int[] {1, 32}) {
            row(profile, floor, "bench-edge-" + claimers, edgeServers, claimers,
                    group -> claimThroughEdge(profile, calls, group, claimers));
        }
    }

    /** Claims of a group, measured. */
    private interface Claims {
        Result measure(String group) throws Exception;
    }

    /**
     * One row: the floor, the item floor (on a group of its own) and the claims, at {@code
     * claimers} threads, each group of {@code servers} AVAILABLE servers made first.
     */
    private static void row(LocalProfile profile, Floor floor, String group, int servers, int claimers, Claims claims)
            throws Exception {
        prepare(profile, group, servers);
        prepare(profile, group + "-items", servers);
        double floorRate = floor.run(claimers, false);
        double itemFloorRate = floor.onGameServers(Tables.GAME_SERVERS.logicalName(), group + "-items",
                servers, claimers);
        printRow(claimers, floorRate, itemFloorRate, claims.measure(group));
    }

    /**
     * One unprinted round of the floor and the claims first: the figures are then the JIT's
     * compiled code (as a warm function's are), not the interpreter's.
     */
    private static void warmUp(LocalProfile profile, Benchmarks.DynamoDbCalls calls, Floor floor, int servers)
            throws Exception {
        prepare(profile, "bench-warm-up", servers);
        floor.run(32, false);
        claimDirect(profile, calls, "bench-warm-up", 32);
    }

    private static void printHeader() {
        System.out.printf("%-9s %9s %9s %7s %12s %9s %11s %14s %10s %8s %8s%n", "claimers", "floor/s", "claims/s", "ratio",
                "item floor/s", "ratio", "calls/claim", "endpoint calls", "WU/claim", "p50 ms", "p99 ms");
    }

    private static void printRow(int claimers, double floorRate, double itemFloorRate, Result r) {
        System.out.printf("%-9d %9.0f %9.0f %6.2fx %12.0f %8.2fx %11.2f %14s %10.2f %8.1f %8.1f%n", claimers, floorRate,
                r.rate(), r.rate() / floorRate, itemFloorRate, r.rate() / itemFloorRate, r.callsPerClaim(),
                endpoint == null ? "-" : String.format("%.2f", r.endpointCallsPerClaim()), r.writeUnitsPerClaim(), r.p50(),
                r.p99());
    }

    private record Result(double rate, double callsPerClaim, double endpointCallsPerClaim, double writeUnitsPerClaim,
            double p50, double p99) {}

    private static Result claimDirect(LocalProfile profile, Benchmarks.DynamoDbCalls calls, String group, int claimers)
            throws Exception {
        GameServerService service = profile.services().gameServers();
        return measure(calls, claimers, () -> {
            try {
                service.claim(new Claim(group, Optional.empty(), Optional.empty(), Optional.empty()));
                return true;
            } catch (GamefleetException e) {
                if (e.errorType().equals("OutOfCapacityException")) {
                    return false;
                }
                throw e;
            }
        });
    }

    /** Claims over HTTP, each signed with SigV4 ({@link EdgeClaim}). */
    private static Result claimThroughEdge(LocalProfile profile, Benchmarks.DynamoDbCalls calls, String group,
            int claimers) throws Exception {
        EdgeClaim edge = new EdgeClaim(profile.endpoint(), group);
        return measure(calls, claimers, () -> edge.claim().isPresent());
    }

    /** One attempt: true if it claimed, false when the group is out of capacity. */
    private interface Attempt {
        boolean claim() throws Exception;
    }

    /**
     * {@code claimers} threads claim until out of capacity; the rate, and the calls and write
     * units per claim, until the group first ran out (each claimer's last, refused claim reads
     * every shard of both buckets: the drain's end, not claiming), and the claims' latencies.
     */
    private static Result measure(Benchmarks.DynamoDbCalls calls, int claimers, Attempt attempt) throws Exception {
        Benchmarks.Latencies latencies = new Benchmarks.Latencies();
        calls.reset();
        long endpointAtStart = endpointCalls();
        Object lock = new Object();
        long[][] snapshot = {null};
        long start = System.nanoTime();
        Benchmarks.onThreads(claimers, () -> {
            while (true) {
                long t0 = System.nanoTime();
                if (!attempt.claim()) {
                    synchronized (lock) {
                        if (snapshot[0] == null) {
                            snapshot[0] = new long[] {calls.get(), (long) (calls.writeUnits() * 1000), latencies.count(),
                                    System.nanoTime(), endpointCalls() - endpointAtStart};
                        }
                    }
                    return null;
                }
                latencies.add(System.nanoTime() - t0);
            }
        });
        long[] s = snapshot[0];
        double seconds = (s[3] - start) / 1e9;
        return new Result(s[2] / seconds, (double) s[0] / s[2], (double) s[4] / s[2], s[1] / 1000.0 / s[2],
                latencies.percentile(0.50), latencies.percentile(0.99));
    }

    /** An ACTIVE group whose instance holds {@code servers} AVAILABLE game servers. */
    static GameServerInstance prepare(LocalProfile profile, String group, int servers) throws InterruptedException {
        return prepare(profile, group, servers, Integer.getInteger("bench.maxSize", 1));
    }

    /** The same in a group of at most {@code maxSize} instances (its servers spread over that many shards, up to 16). */
    private static GameServerInstance prepare(LocalProfile profile, String group, int servers, int maxSize)
            throws InterruptedException {
        Benchmarks.createActive(profile, group, 1, maxSize, List.of("c5.large", "m5.large"));
        GameServerInstance instance = profile.services().groups()
                .describeInstances(group, Optional.empty(), 1, Optional.empty()).items().get(0);
        AtomicInteger next = new AtomicInteger();
        try {
            Benchmarks.onThreads(8, () -> {
                for (int i = next.getAndIncrement(); i < servers; i = next.getAndIncrement()) {
                    register(profile, group, group + "-" + i, instance.instanceId());
                }
                return null;
            });
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("registering the benchmark's servers failed", e);
        }
        return instance;
    }

    private static void register(LocalProfile profile, String group, String id, String instanceId) {
        profile.services().gameServers().register(new Registration(group, id, instanceId,
                Optional.of("127.0.0.1:7777"), Optional.empty()), Caller.UNBOUND);
    }

    // ---- sparse --------------------------------------------------------------------------

    /**
     * One claim every {@code interval} ms per group size, each at its scheduled time or when the
     * one before answered, whichever is later: the calls of each claim (at the client and at the
     * endpoint) and the latencies. Between claims, uncounted, the claimed server's game ends at
     * once (it deregisters and a new server registers on the instance), so the group keeps its
     * size. A first, unprinted claim reads the group once, as a warm container's first claim of
     * a group does.
     */
    private static void sparse(LocalProfile profile, Benchmarks.DynamoDbCalls calls, String[] args) throws Exception {
        long interval = args.length > 1 ? Long.parseLong(args[1]) : 1000;
        int claims = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        int[] sizes = args.length > 3 ? java.util.Arrays.stream(args[3].split(",")).mapToInt(Integer::parseInt).toArray()
                : new int[] {10, 40, 3000};
        GameServerService service = profile.services().gameServers();
        System.out.printf("sparse: one claim every %d ms, %d claims per group, one container%n", interval, claims);
        System.out.printf("%-9s %11s %14s %8s %8s %8s%n", "servers", "calls/claim", "endpoint calls", "p50 ms", "p99 ms",
                "max ms");
        for (int servers : sizes) {
            String group = "bench-sparse-" + servers;
            // A group sized for 50 servers an instance: a small one has one shard, 800 servers or more all 16.
            String instanceId = prepare(profile, group, servers, Math.max(1, servers / 50)).instanceId();
            Claim claim = new Claim(group, Optional.empty(), Optional.empty(), Optional.empty());
            AtomicLong nextId = new AtomicLong(servers);
            List<String> live = new java.util.ArrayList<>();
            endGame(profile, group, service.claim(claim).gameServerId(), instanceId, live, nextId);
            long clientCalls = 0;
            long endpointCalls = 0;
            Benchmarks.Latencies latencies = new Benchmarks.Latencies();
            long start = System.nanoTime() + interval * 1_000_000;
            for (int n = 0; n < claims; n++) {
                long wait = start + n * interval * 1_000_000 - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                long client0 = calls.get();
                long endpoint0 = endpointCalls();
                long t0 = System.nanoTime();
                GameServer claimed = service.claim(claim);
                latencies.add(System.nanoTime() - t0);
                clientCalls += calls.get() - client0;
                endpointCalls += endpointCalls() - endpoint0;
                endGame(profile, group, claimed.gameServerId(), instanceId, live, nextId);
            }
            System.out.printf("%-9d %11.2f %14s %8.1f %8.1f %8.1f%n", servers, (double) clientCalls / claims,
                    endpoint == null ? "-" : String.format("%.2f", (double) endpointCalls / claims),
                    latencies.percentile(0.5), latencies.percentile(0.99), latencies.percentile(1.0));
        }
    }

    /** The game ended: the server deregisters and a new one registers on the instance. */
    static void endGame(LocalProfile profile, String group, String id, String instanceId, List<String> live,
            AtomicLong nextId) {
        Benchmarks.DynamoDbCalls.as("game");
        live.remove(id);
        profile.services().gameServers().deregister(group, id, Caller.UNBOUND);
        String fresh = group + "-" + nextId.getAndIncrement();
        register(profile, group, fresh, instanceId);
        live.add(fresh);
    }
}
