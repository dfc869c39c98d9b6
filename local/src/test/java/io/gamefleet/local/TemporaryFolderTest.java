package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.testing.TestBackend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The run's temporary folder (the emulators' logs, metrics.log) is removed when the profile stops, unless kept. */
class TemporaryFolderTest {
    @BeforeEach
    void embeddedOnly() {
        Assumptions.assumeTrue(TestBackend.selected().embedded() && DeployedApi.selected().isEmpty(),
                "starts in-process profiles of its own");
    }

    private static LocalProfile start(boolean keepTemp) {
        LocalProfile.Options d = LocalProfile.Options.defaults();
        return LocalProfile.start(new LocalProfile.Options(0, d.claimTtl(), d.healthTimeout(), Duration.ZERO,
                Duration.ZERO, Optional.empty(), Optional.empty(), Optional.empty(), d.principals(), d.clock(),
                Duration.ofMillis(50), d.home(), List.of(), d.localToken(), false, keepTemp, d.log(), d.limits(), false,
                d.region()));
    }

    @Test
    void theFolderIsRemovedAtTheEndUnlessKept() throws IOException {
        Path removed;
        try (LocalProfile profile = start(false)) {
            removed = profile.logsDirectory();
            assertThat(removed.resolve("dynoxide.log")).exists();
        }
        assertThat(removed).doesNotExist();

        Path kept;
        try (LocalProfile profile = start(true)) {
            kept = profile.logsDirectory();
        }
        try {
            assertThat(kept.resolve("stepfunctions-sidecar.log")).exists();
        } finally {
            try (Stream<Path> paths = Files.walk(kept)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
