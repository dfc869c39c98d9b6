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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A child process of the local profile (dynoxide, the Step Functions sidecar): started with its
 * output in a log file, ready once its endpoint answers 200, destroyed with the profile. It can be
 * started again, on the same port with the same arguments ({@link #restart}).
 */
public final class ChildProcess implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

    private final String name;
    private final List<String> command;
    private final Map<String, String> environment;
    private final File workingDirectory;
    private final File log;
    private final URI endpoint;
    private volatile Process process;
    private volatile boolean closed;

    private ChildProcess(String name, List<String> command, Map<String, String> environment, File workingDirectory,
            File log, URI endpoint) {
        this.name = name;
        this.command = List.copyOf(command);
        this.environment = Map.copyOf(environment);
        this.workingDirectory = workingDirectory;
        this.log = log;
        this.endpoint = endpoint;
    }

    static ChildProcess start(String name, List<String> command, File workingDirectory, File logDirectory,
            URI endpoint) {
        return start(name, command, Map.of(), workingDirectory, logDirectory, endpoint);
    }

    /** With these variables added to its environment (what must not show in its command line). */
    static ChildProcess start(String name, List<String> command, Map<String, String> environment,
            File workingDirectory, File logDirectory, URI endpoint) {
        ChildProcess child = new ChildProcess(name, command, environment, workingDirectory,
                new File(logDirectory, name + ".log"), endpoint);
        child.launch(false);
        return child;
    }

    public String name() {
        return name;
    }

    public URI endpoint() {
        return endpoint;
    }

    public File log() {
        return log;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Whether {@link #close} was called: an exit since is no failure. */
    public boolean isClosed() {
        return closed;
    }

    /**
     * The emulator's own process: the child of the tether this object started (signals for tests
     * go to it), or the tether while it has none.
     */
    public ProcessHandle serverProcess() {
        Process p = process;
        return p.toHandle().children().findFirst().orElse(p.toHandle());
    }

    /** How it ended: its exit code and, from a signal, which one. Empty while it runs. */
    public Optional<String> exit() {
        Process p = process;
        if (p.isAlive()) {
            return Optional.empty();
        }
        int code = p.exitValue();
        String signal = code > 128 && code < 160 ? " (ended by signal " + (code - 128) + signalName(code - 128) + ")"
                : "";
        return Optional.of("exited with code " + code + signal);
    }

    private static String signalName(int signal) {
        return switch (signal) {
            case 9 -> ", SIGKILL";
            case 15 -> ", SIGTERM";
            case 6 -> ", SIGABRT";
            case 11 -> ", SIGSEGV";
            case 2 -> ", SIGINT";
            default -> "";
        };
    }

    /** Whether its endpoint answers 200 within {@code timeout} (a stopped or hung process does not). */
    public boolean answers(Duration timeout) {
        try {
            return HTTP.send(HttpRequest.newBuilder(endpoint).timeout(timeout).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Starts it again (after it ended), on the same port, its output added to the same log. */
    public synchronized void restart() {
        if (closed) {
            throw new IllegalStateException(name + " is stopped");
        }
        if (process.isAlive()) {
            stop(process);
        }
        launch(true);
    }

    private void launch(boolean append) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().putAll(environment);
            process = builder
                    .directory(workingDirectory)
                    .redirectErrorStream(true)
                    .redirectOutput(append ? ProcessBuilder.Redirect.appendTo(log) : ProcessBuilder.Redirect.to(log))
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("could not start " + name + " (" + String.join(" ", command) + "): "
                    + e.getMessage(), e);
        }
        awaitReady();
    }

    /** Polls the endpoint: the child's start-up time is real time, not the profile's clock. */
    private void awaitReady() {
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with code " + process.exitValue()
                        + " during start-up; see " + log);
            }
            if (answers(Duration.ofSeconds(1))) {
                return;
            }
            if (Thread.currentThread().isInterrupted()) {
                stop(process);
                throw new IllegalStateException("interrupted while starting " + name);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        stop(process);
        throw new IllegalStateException(name + " did not become ready within " + READY_TIMEOUT.toSeconds()
                + " seconds; see " + log);
    }

    /** Ends the tether, and after it whatever it ran that is still there (a stopped process ignores SIGTERM). */
    private static void stop(Process p) {
        List<ProcessHandle> descendants = p.toHandle().descendants().toList();
        end(p);
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private static void end(Process p) {
        p.destroy();
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed = true;
        stop(process);
    }
}
