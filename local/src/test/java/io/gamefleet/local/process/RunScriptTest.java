package io.gamefleet.local.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** local/run says at once what a platform without the embedded emulator needs, before installing or building. */
class RunScriptTest {
    @TempDir
    Path fakeBin;

    @Test
    void onAnotherPlatformItAsksForAnotherDynamoDb() throws Exception {
        Process run = runOn("Darwin", "arm64");
        String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(run.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(run.exitValue()).as(output).isEqualTo(1);
        assertThat(output).contains("Linux on x86-64 only, not Darwin/arm64", "--dynamodb-endpoint URL", "--localstack")
                .doesNotContain("npm ci").doesNotContain("mvn");
    }

    private Process runOn(String os, String machine) throws IOException {
        Path uname = fakeBin.resolve("uname");
        Files.writeString(uname, "#!/bin/sh\ncase \"$1\" in -s) echo " + os + ";; -m) echo " + machine + ";; esac\n");
        Files.setPosixFilePermissions(uname, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder builder = new ProcessBuilder("bash", Path.of("run").toAbsolutePath().toString(), "--port", "1")
                .redirectErrorStream(true);
        builder.environment().put("PATH", fakeBin + ":" + System.getenv("PATH"));
        return builder.start();
    }
}
