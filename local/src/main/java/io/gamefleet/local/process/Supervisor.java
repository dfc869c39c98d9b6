package io.gamefleet.local.process;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Watches the local profile's child processes. One that ends is reported (which, and how it
 * ended) and, where that loses nothing, started again on the same port, and its {@code afterRestart}
 * runs; where it would lose data, or after {@value #MAX_RESTARTS} restarts within a minute, the
 * profile has failed: {@link #failure} completes with the reason. One that stops answering (a
 * stopped or hung process) is reported as such until it answers again. {@link #states} is what
 * {@code /_local/health} shows.
 */
public final class Supervisor implements AutoCloseable {
    static final int MAX_RESTARTS = 3;
    private static final Duration RESTART_WINDOW = Duration.ofMinutes(1);
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);
    private static final long PERIOD_MS = 250;

    /**
     * A child to watch: {@code lostOnExit} says what its end loses if it does (empty: nothing,
     * so it is restarted), {@code afterRestart} what to redo once it runs again.
     */
    public record Watched(ChildProcess child, Optional<String> lostOnExit, Runnable afterRestart) {}

    private static final class State {
        final Watched watched;
        final Deque<Instant> restarts = new ArrayDeque<>();
        volatile String state = "running";
        volatile String reason;
        volatile int restartCount;

        State(Watched watched) {
            this.watched = watched;
        }
    }

    private final List<State> states = new ArrayList<>();
    private final Map<String, Map<String, Object>> external = new LinkedHashMap<>();
    private final Consumer<String> log;
    private final CompletableFuture<String> failure = new CompletableFuture<>();
    private final Thread thread;
    private volatile boolean closed;

    /** {@code external}: dependencies given by their endpoint, which the profile does not run (name to endpoint). */
    public Supervisor(List<Watched> children, Map<String, String> external, Consumer<String> log) {
        children.forEach(w -> states.add(new State(w)));
        external.forEach((name, endpoint) -> this.external.put(name, Map.of("state", "external", "endpoint", endpoint)));
        this.log = log;
        thread = new Thread(this::watch, "local-supervisor");
        thread.setDaemon(true);
        thread.start();
    }

    /** Completes, with what happened, when the profile cannot go on. */
    public CompletableFuture<String> failure() {
        return failure;
    }

    /** Each dependency: its state (running, not answering, restarting, failed or external) and details. */
    public Map<String, Map<String, Object>> states() {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        for (State s : states) {
            Map<String, Object> d = new LinkedHashMap<>();
            ChildProcess child = s.watched.child();
            d.put("state", s.state);
            d.put("endpoint", child.endpoint().toString());
            if (!s.state.equals("failed")) {
                d.put("pid", child.serverProcess().pid());
            }
            d.put("restarts", s.restartCount);
            if (s.reason != null) {
                d.put("reason", s.reason);
            }
            d.put("log", child.log().toString());
            out.put(child.name(), d);
        }
        out.putAll(external);
        return out;
    }

    private void watch() {
        while (!closed && !failure.isDone()) { // once failed, the profile stops: nothing more to watch
            for (State s : states) {
                if (closed || failure.isDone()) {
                    return;
                }
                try {
                    check(s);
                } catch (RuntimeException e) {
                    log.accept("local profile: watching " + s.watched.child().name() + " failed: " + e);
                }
            }
            try {
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void check(State s) {
        ChildProcess child = s.watched.child();
        if (s.state.equals("failed") || child.isClosed()) {
            return;
        }
        Optional<String> exit = child.exit();
        if (exit.isEmpty()) {
            boolean answers = child.answers(PROBE_TIMEOUT);
            if (!answers && s.state.equals("running")) {
                s.state = "not answering";
                s.reason = "its endpoint " + child.endpoint() + " did not answer within " + PROBE_TIMEOUT.toSeconds()
                        + " s (stopped or hung?) at " + Instant.now();
                log.accept("local profile: " + child.name() + " (pid " + child.serverProcess().pid()
                        + ") does not answer; requests that need it fail until it does");
            } else if (answers && s.state.equals("not answering")) {
                s.state = "running";
                s.reason = null;
                log.accept("local profile: " + child.name() + " answers again");
            }
            return;
        }
        String what = child.name() + " " + exit.get() + "; see " + child.log();
        if (closed) {
            return;
        }
        if (s.watched.lostOnExit().isPresent()) {
            fail(s, what + ". " + s.watched.lostOnExit().get());
            return;
        }
        Instant now = Instant.now();
        while (!s.restarts.isEmpty() && s.restarts.peekFirst().isBefore(now.minus(RESTART_WINDOW))) {
            s.restarts.removeFirst();
        }
        if (s.restarts.size() >= MAX_RESTARTS) {
            fail(s, what + ". It ended " + (MAX_RESTARTS + 1) + " times within a minute; it is not restarted again");
            return;
        }
        s.restarts.addLast(now);
        s.state = "restarting";
        s.reason = what;
        log.accept("local profile: " + what + "; starting it again on the same port");
        try {
            child.restart();
            s.restartCount++;
            s.watched.afterRestart().run();
            s.state = "running";
            s.reason = "restarted at " + Instant.now() + " after it " + exit.get();
            log.accept("local profile: " + child.name() + " runs again (pid " + child.serverProcess().pid() + ")");
        } catch (RuntimeException e) {
            if (!closed) {
                fail(s, what + ". Starting it again failed: " + e.getMessage());
            }
        }
    }

    private void fail(State s, String reason) {
        s.state = "failed";
        s.reason = reason;
        log.accept("local profile: " + reason);
        failure.complete(reason);
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
