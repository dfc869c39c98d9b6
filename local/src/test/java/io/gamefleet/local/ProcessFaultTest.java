package io.gamefleet.local;

import static io.gamefleet.local.FaultProfile.DYNOXIDE;
import static io.gamefleet.local.GamefleetClient.groupBody;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.testing.TestBackend;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local profile when its emulators fail: a killed one is reported, and started again where
 * nothing is lost (dynoxide with --data-dir), else the profile fails.
 */
class ProcessFaultTest {
    @BeforeAll
    static void onTheEmbeddedBackendOnly() {
        org.junit.jupiter.api.Assumptions.assumeTrue(TestBackend.selected().embedded()
                && DeployedApi.selected().isEmpty(), "kills and stops the emulators the in-process profile runs");
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
