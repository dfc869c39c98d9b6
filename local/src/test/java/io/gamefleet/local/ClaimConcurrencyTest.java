package io.gamefleet.local;

import static io.gamefleet.local.GamefleetClient.groupBody;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.local.GamefleetClient.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Many matchmakers claiming from one group at once: no game server is handed out twice. */
class ClaimConcurrencyTest {
    private static final int SERVERS = 200;
    private static final int CLAIMERS = 32;

    @RegisterExtension
    /** 200 servers on 4 instances: a stage that lets an instance hold 50. */
    static final LocalProfileExtension LOCAL = new LocalProfileExtension().withMaxGameServersPerInstance(50);

    @Test
    void concurrentClaimsHandOutEachServerAtMostOnce() throws Exception {
        GamefleetClient admin = LOCAL.admin();
        String g = "contended";
        admin.createActive(groupBody(g, 4, 4));
        List<String> instances = admin.instanceIds(g);
        assertThat(instances).hasSize(4);

        ExecutorService pool = Executors.newFixedThreadPool(CLAIMERS);
        try {
            // Registration, 32 at a time.
            List<Future<Response>> registrations = new ArrayList<>();
            for (int n = 0; n < SERVERS; n++) {
                String id = String.format("contended-%03d", n);
                String instance = instances.get(n % instances.size());
                registrations.add(pool.submit(() -> admin.register(g, id, instance)));
            }
            for (Future<Response> f : registrations) {
                f.get(60, TimeUnit.SECONDS).ok();
            }
            Set<String> registered = IntStream.range(0, SERVERS).mapToObj(n -> String.format("contended-%03d", n))
                    .collect(Collectors.toSet());
            List<JsonNode> listed = admin.listAll(GamefleetClient.groupPath(g) + "/game-servers", "GameServers", 100);
            assertThat(listed).hasSize(SERVERS);
            assertThat(listed).allSatisfy(s -> assertThat(s.has("ClaimStatus")).isFalse());

            // 32 matchmakers claim until each is told there is nothing left.
            GamefleetClient matchmaker = LOCAL.matchmaker();
            ConcurrentLinkedQueue<String> handedOut = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<Response> unexpected = new ConcurrentLinkedQueue<>();
            Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> claimers = new ArrayList<>();
            for (int t = 0; t < CLAIMERS; t++) {
                claimers.add(pool.submit(() -> {
                    start.await();
                    for (int calls = 0; calls < SERVERS + 10; calls++) {
                        Response r = matchmaker.claim(g);
                        String outcome = r.status() == 200 ? "200" : r.status() + " " + r.type();
                        outcomes.computeIfAbsent(outcome, k -> new AtomicInteger()).incrementAndGet();
                        if (r.status() == 200) {
                            assertThat(r.server().get("ClaimStatus").asText()).isEqualTo("CLAIMED");
                            handedOut.add(r.serverId());
                        } else if (r.isError(409, "OutOfCapacityException")) {
                            return null;
                        } else {
                            unexpected.add(r);
                            return null;
                        }
                    }
                    throw new AssertionError("a claimer never ran out of capacity");
                }));
            }
            long started = System.nanoTime();
            start.countDown();
            for (Future<?> f : claimers) {
                f.get(120, TimeUnit.SECONDS);
            }
            System.out.printf("ClaimConcurrencyTest: %d claims by %d threads in %d ms, outcomes %s%n",
                    handedOut.size(), CLAIMERS, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), outcomes);

            assertThat(unexpected).as("responses other than 200 and 409 OutOfCapacityException").isEmpty();
            assertThat(handedOut).as("claimed ids").doesNotHaveDuplicates();
            assertThat(registered).containsAll(handedOut);
            // Every claimer stopped at OutOfCapacityException, so nothing may be left to claim.
            List<JsonNode> after = admin.listAll(GamefleetClient.groupPath(g) + "/game-servers", "GameServers", 100);
            List<String> unclaimed = after.stream().filter(s -> !s.has("ClaimStatus"))
                    .map(s -> s.get("GameServerId").asText()).toList();
            assertThat(unclaimed).as("servers left unclaimed although every claimer got OutOfCapacityException")
                    .isEmpty();
            assertThat(handedOut).hasSize(SERVERS);
            assertThat(after).allSatisfy(s -> assertThat(s.get("ClaimStatus").asText()).isEqualTo("CLAIMED"));
            matchmaker.claim(g).error(409, "OutOfCapacityException");
        } finally {
            pool.shutdownNow();
        }
    }
}
