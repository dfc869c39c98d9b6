package io.gamefleet.local;

import static io.gamefleet.local.FaultProfile.DYNOXIDE;
import static io.gamefleet.local.GamefleetClient.groupBody;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.testing.TestBackend;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local profile when its emulators fail: a stopped one (SIGSTOP) fails requests quickly with
 * a retryable error and health says so while every worker waits; a killed one is reported, and
 * started again where nothing is lost (dynoxide with --data-dir), else the profile fails.
 */
class ProcessFaultTest {
    @BeforeAll
    static void onTheEmbeddedBackendOnly() {
        org.junit.jupiter.api.Assumptions.assumeTrue(TestBackend.selected().embedded()
                && DeployedApi.selected().isEmpty(), "kills and stops the emulators the in-process profile runs");
    }

    @Test
    void aStoppedEmulatorFailsRequestsQuicklyWhileHealthAnswers() throws Exception {
        try (FaultProfile p = FaultProfile.start(Optional.empty())) {
            p.admin.listGroups("").ok();
            p.signal(DYNOXIDE, "STOP");
            // As many requests as the edge has workers, each waiting on DynamoDB.
            ExecutorService callers = Executors.newFixedThreadPool(64);
            List<CompletableFuture<GamefleetClient.Response>> calls = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                calls.add(CompletableFuture.supplyAsync(() -> p.admin.listGroups(""), callers));
            }
            FaultProfile.Health stalled = p.awaitHealth(h -> h.state(DYNOXIDE).equals("not answering"),
                    Duration.ofSeconds(10), "dynoxide not answering");
            assertThat(stalled.status()).isEqualTo(503);
            assertThat(stalled.body().get("status").asText()).isEqualTo("unavailable");
            // Each ends within the SDK's call timeout (8 s), well inside an API function's 20 s.
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            for (CompletableFuture<GamefleetClient.Response> call : calls) {
                GamefleetClient.Response r = call.get().error(500, "InternalServiceException");
                assertThat(r.message()).contains("safe to retry");
            }
            callers.shutdownNow();
            p.signal(DYNOXIDE, "CONT");
            p.awaitHealth(h -> h.status() == 200, Duration.ofSeconds(10), "ready");
            p.admin.listGroups("").ok();
        }
    }

    @Test
    void aKilledEmulatorWhoseTablesWereInMemoryStopsTheProfile() throws Exception {
        try (FaultProfile p = FaultProfile.start(Optional.empty())) {
            p.signal(DYNOXIDE, "KILL");
            String reason = p.profile.failure().get(10, TimeUnit.SECONDS);
            assertThat(reason).contains("dynoxide").contains("SIGKILL").contains("in memory").contains("--data-dir");
            FaultProfile.Health health = p.health();
            assertThat(health.status()).isEqualTo(503);
            assertThat(health.state(DYNOXIDE)).isEqualTo("failed");
            assertThat(health.dependency(DYNOXIDE).get("reason").asText()).contains("SIGKILL");
            assertThat(health.state(FaultProfile.SIDECAR)).isEqualTo("running");
        }
    }

    @Test
    void aKilledEmulatorWithADataDirIsStartedAgainWithNothingLost(@TempDir Path data) {
        try (FaultProfile p = FaultProfile.start(Optional.of(data))) {
            p.admin.createActive(groupBody("kept", 1, 2));
            long before = p.child(DYNOXIDE).serverProcess().pid();
            p.signal(DYNOXIDE, "KILL");
            FaultProfile.Health health = p.awaitHealth(h -> h.dependency(DYNOXIDE).path("restarts").asInt() == 1
                    && h.state(DYNOXIDE).equals("running"), Duration.ofSeconds(20), "dynoxide started again");
            assertThat(health.status()).isEqualTo(200);
            assertThat(health.dependency(DYNOXIDE).get("reason").asText()).contains("SIGKILL");
            assertThat(health.dependency(DYNOXIDE).get("pid").asLong()).isNotEqualTo(before);
            assertThat(p.profile.failure()).isNotDone();
            assertThat(p.admin.describeGroup("kept").ok().group().get("Status").asText()).isEqualTo("ACTIVE");
            p.admin.createActive(groupBody("after", 1, 2));
        }
    }
}
