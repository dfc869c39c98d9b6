package io.gamefleet.sdktests;

import io.gamefleet.sdktests.LocalGamefleet.Caller;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A command of another language's SDK or CLI, run to its end with a caller's credentials and no AWS config of the machine. */
final class Command {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    /** What the command said and how it ended. */
    record Result(int exitCode, String stdout, String stderr) {
        String describe() {
            return "exit code " + exitCode + "\n--- stdout\n" + stdout + "\n--- stderr\n" + stderr;
        }
    }

    private Command() {}

    static Result run(List<String> command, File directory, Caller caller, Map<String, String> environment) {
        try {
            Path out = Files.createTempFile("sdk-tests", ".out");
            Path err = Files.createTempFile("sdk-tests", ".err");
            try {
                ProcessBuilder builder = new ProcessBuilder(command).directory(directory)
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                        .redirectOutput(out.toFile()).redirectError(err.toFile());
                Map<String, String> env = builder.environment();
                env.keySet().removeIf(name -> name.startsWith("AWS_"));
                env.put("AWS_ACCESS_KEY_ID", caller.accessKeyId());
                env.put("AWS_SECRET_ACCESS_KEY", caller.secretAccessKey());
                env.put("AWS_DEFAULT_REGION", LocalGamefleet.REGION);
                env.put("AWS_REGION", LocalGamefleet.REGION);
                env.put("AWS_EC2_METADATA_DISABLED", "true");
                // Nothing from this machine's AWS configuration.
                env.put("AWS_CONFIG_FILE", directory.toPath().resolve("no-aws-config").toString());
                env.put("AWS_SHARED_CREDENTIALS_FILE", directory.toPath().resolve("no-aws-credentials").toString());
                env.put("AWS_PAGER", "");
                env.putAll(environment);
                Process process = builder.start();
                if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly().waitFor();
                    throw new AssertionError(String.join(" ", command) + " did not end within " + TIMEOUT + ":\n"
                            + Files.readString(out) + Files.readString(err));
                }
                return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                        Files.readString(err, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Whether the command runs and exits 0 (for a test's assumptions: is this tool installed here?). */
    static boolean available(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
