package io.gamefleet.local.process;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A child process of the local profile (dynoxide, the Step Functions sidecar): started with its
 * output in a log file, ready once its endpoint answers 200, destroyed with the profile.
 */
public final class ChildProcess implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
    private final String name;
    private final Process process;
    private final File log;
    private final URI endpoint;

    private ChildProcess(String name, Process process, File log, URI endpoint) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.endpoint = endpoint;
    }

    static ChildProcess start(String name, List<String> command, File workingDirectory, File logDirectory,
            URI endpoint) {
        File log = new File(logDirectory, name + ".log");
        Process process;
        try {
            process = new ProcessBuilder(command)
                    .directory(workingDirectory)
                    .redirectErrorStream(true)
                    .redirectOutput(log)
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("could not start " + name + " (" + String.join(" ", command) + "): "
                    + e.getMessage(), e);
        }
        ChildProcess child = new ChildProcess(name, process, log, endpoint);
        child.awaitReady();
        return child;
    }

    public URI endpoint() {
        return endpoint;
    }

    /** Polls the endpoint: the child's start-up time is real time, not the profile's clock. */
    private void awaitReady() {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with code " + process.exitValue()
                        + " during start-up; see " + log);
            }
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(1)).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close();
                throw new IllegalStateException("interrupted while starting " + name, e);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        close();
        throw new IllegalStateException(name + " did not become ready within " + READY_TIMEOUT.toSeconds()
                + " seconds; see " + log);
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
