package io.gamefleet.local.bench;

import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.GameServerService;
import io.gamefleet.domain.GameServerService.Claim;
import io.gamefleet.domain.GameServerService.Registration;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.Caller;
import io.gamefleet.local.LocalProfile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Claim throughput against the local profile's DynamoDB (dynoxide): for 1, 8 and 32 concurrent
 * claimers, each on a fresh ACTIVE group of {@code servers} AVAILABLE game servers, claims until
 * the group is out of capacity and prints claims per second, DynamoDB calls per successful claim
 * and p50/p99 latency. Run: {@code java -cp local/target/gamefleet-local.jar io.gamefleet.local.bench.ClaimBenchmark [servers]}.
 */
public final class ClaimBenchmark {
    private ClaimBenchmark() {}

    public static void main(String[] args) throws Exception {
        int servers = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        Benchmarks.DynamoDbCalls dynamoCalls = new Benchmarks.DynamoDbCalls();
        try (LocalProfile profile = Benchmarks.start(dynamoCalls)) {
            System.out.printf("%-9s %8s %12s %16s %9s %9s%n", "claimers", "claims", "claims/s", "DDB calls/claim",
                    "p50 ms", "p99 ms");
            for (int claimers : new int[] {1, 8, 32}) {
                String group = "bench-" + claimers;
                prepare(profile, group, servers);
                GameServerService service = profile.services().gameServers();
                List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
                dynamoCalls.reset();
                long start = System.nanoTime();
                ExecutorService pool = Executors.newFixedThreadPool(claimers);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < claimers; t++) {
                    done.add(pool.submit(() -> {
                        while (true) {
                            long t0 = System.nanoTime();
                            try {
                                service.claim(new Claim(group, Optional.empty(), Optional.empty(), Optional.empty()));
                                latencies.add(System.nanoTime() - t0);
                            } catch (GamefleetException e) {
                                if (e.errorType().equals("OutOfCapacityException")) {
                                    return;
                                }
                                throw e;
                            }
                        }
                    }));
                }
                for (Future<?> f : done) {
                    f.get();
                }
                pool.shutdown();
                double seconds = (System.nanoTime() - start) / 1e9;
                List<Long> sorted = new ArrayList<>(latencies);
                Collections.sort(sorted);
                System.out.printf("%-9d %8d %12.0f %16.2f %9.1f %9.1f%n", claimers, sorted.size(),
                        sorted.size() / seconds, (double) dynamoCalls.get() / sorted.size(),
                        percentile(sorted, 0.50), percentile(sorted, 0.99));
            }
        }
    }

    /** An ACTIVE group whose instance holds {@code servers} AVAILABLE game servers. */
    private static void prepare(LocalProfile profile, String group, int servers) throws InterruptedException {
        Benchmarks.createActive(profile, group, 1, 1, List.of("c5.large", "m5.large"));
        GameServerInstance instance = profile.services().groups().describeInstances(group, Optional.empty(), 1, Optional.empty()).items().get(0);
        for (int i = 0; i < servers; i++) {
            profile.services().gameServers().register(new Registration(group, group + "-" + i, instance.instanceId(),
                    Optional.of("10.0.0.1:" + (7000 + i)), Optional.empty()), Caller.UNBOUND);
        }
    }

    private static double percentile(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1)) / 1e6;
    }
}
