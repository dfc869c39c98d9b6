package io.gamefleet.local.ecs;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Runs a simulated task's containers as processes on this machine. The image is not run (there is
 * no container runtime): each container's entry point and command run, under {@code setsid}, so that
 * each container is a process group of its own that one signal reaches whole; a container without a
 * command runs its image's local stand-in, if one is given (the agent image's: the agent jar, made
 * for the container's folder and environment), and otherwise the task fails to start. Each runs in its own folder of the run's, its output in
 * {@code <container>.log} beside it, with the container's environment and ECS's variables only (and
 * this machine's PATH).
 *
 * <p>A task's volumes are folders of its own: a mount point's container path, where a variable's
 * value starts with it, is replaced by its volume's folder (so {@code /gamefleet/gsdk.json} names a
 * file the task's containers share). Every container of the task gets the task's own keys in
 * {@code AWS_ACCESS_KEY_ID} and {@code AWS_SECRET_ACCESS_KEY}, as ECS gives the task role to every
 * container of a task (the game server's too, not only the agent sidecar's): a GAME_SERVER principal
 * bound to the task's FleetIQ instance id, admitted by the edge until the task is killed.
 *
 * <p>The task's process groups are tethered to this JVM: a shell holding a pipe from it kills them
 * when the pipe closes, so they end with the profile even when it is killed with SIGKILL.
 */
public final class ProcessTaskLauncher implements TaskLauncher {
    private final Path folder;
    private final TaskKeys taskKeys;
    private final Map<String, BiFunction<Path, Map<String, String>, List<String>>> standIns;

    /**
     * {@code standIns}: by image, what runs locally for a container of it that has no command, given
     * the container's folder (where it runs) and environment.
     */
    public ProcessTaskLauncher(Path folder, TaskKeys taskKeys, Map<String, BiFunction<Path, Map<String, String>, List<String>>> standIns) {
        this.folder = folder;
        this.taskKeys = taskKeys;
        this.standIns = Map.copyOf(standIns);
    }

    private record Started(Container container, Process process, Map<String, String> environment, Path folder) {}

    /**
     * Starts the containers that wait for none at once (a refusal ends the launch, nothing left
     * running), and the others as their dependencies are met ({@link Running#advance}).
     */
    @Override
    public Running launch(Launch launch) {
        Path task = folder.resolve(launch.taskId());
        TaskKeys.Keys keys = taskKeys.issue(launch.instanceId());
        Group group = new Group(task, keys, launch.containers());
        try {
            group.startReady();
        } catch (IOException | RuntimeException e) {
            group.kill();
            throw new IllegalStateException(e.getMessage(), e);
        }
        return group;
    }

    /**
     * A shell that kills the task's process groups when its stdin, a pipe this JVM holds, closes: at
     * the task's kill, or when this JVM ends, however it ends (SIGKILL runs no shutdown hook).
     */
    private static Process tether(Process container) throws IOException {
        // SIGINT ignored (and so by cat): a terminal's Ctrl-C is the profile's to act on, in order.
        List<String> line = new ArrayList<>(List.of("sh", "-c",
                "trap '' INT; cat > /dev/null; kill -s KILL -- \"$@\" 2> /dev/null", "sh"));
        line.add("-" + container.pid());
        return new ProcessBuilder(line).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    private Started start(Path task, Container c, TaskKeys.Keys keys) throws IOException {
        Path work = Files.createDirectories(task.resolve(c.name()));
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        for (Map.Entry<String, String> variable : c.environment().entrySet()) {
            environment.put(variable.getKey(), local(task, c.mountPoints(), variable.getValue()));
        }
        environment.put("AWS_ACCESS_KEY_ID", keys.accessKeyId());
        environment.put("AWS_SECRET_ACCESS_KEY", keys.secretAccessKey());
        List<String> command = c.command().isEmpty() ? Optional.ofNullable(standIns.get(c.image())).orElseThrow(() ->
                new IllegalStateException("container " + c.name() + " has no command, and its image " + c.image()
                        + " is not run locally")).apply(work, environment) : c.command();
        List<String> line = new ArrayList<>();
        line.add("setsid");
        line.addAll(command);
        ProcessBuilder builder = new ProcessBuilder(line).directory(work.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(task.resolve(c.name() + ".log").toFile()));
        builder.environment().clear();
        builder.environment().putAll(environment);
        return new Started(c, builder.start(), environment, work);
    }

    /** The value with a mount point's container path replaced by its volume's folder. */
    private static String local(Path task, Map<String, String> mountPoints, String value) throws IOException {
        for (Map.Entry<String, String> mount : mountPoints.entrySet()) {
            String path = mount.getKey();
            if (value.equals(path) || value.startsWith(path + "/")) {
                Path volume = Files.createDirectories(task.resolve("volumes").resolve(mount.getValue()));
                return volume + value.substring(path.length());
            }
        }
        return value;
    }

    /**
     * A task's containers: those started, each with its tether, and those waiting for others (ECS's
     * dependsOn: START once the other has started, HEALTHY once its health check passes, COMPLETE
     * and SUCCESS once it has exited, with 0 for SUCCESS).
     */
    private final class Group implements Running {
        private static final java.time.Duration HEALTH_CHECK_TIMEOUT = java.time.Duration.ofSeconds(2);
        private final Path task;
        private final TaskKeys.Keys keys;
        private final List<Started> started = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final List<Container> pending;
        private final List<Process> tethers = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final java.util.Set<String> healthy = java.util.concurrent.ConcurrentHashMap.newKeySet();
        private volatile boolean failed;

        Group(Path task, TaskKeys.Keys keys, List<Container> containers) {
            this.task = task;
            this.keys = keys;
            this.pending = new ArrayList<>(containers);
        }

        /** Starts every pending container whose dependencies are met, until none more is. */
        synchronized void startReady() throws IOException {
            for (boolean more = true; more; ) {
                more = false;
                for (Container c : List.copyOf(pending)) {
                    if (c.dependsOn().entrySet().stream().allMatch(d -> met(d.getKey(), d.getValue()))) {
                        pending.remove(c);
                        Started s = start(task, c, keys);
                        started.add(s);
                        tethers.add(tether(s.process()));
                        more = true;
                    }
                }
            }
        }

        @Override
        public void advance() {
            if (pending.isEmpty() || failed) {
                return;
            }
            try {
                startReady();
            } catch (IOException | RuntimeException e) {
                failed = true; // a container that cannot start fails the task, as its essential container exiting does
                System.err.println("simulated ECS: task " + task.getFileName() + ": a container could not start: "
                        + e.getMessage());
            }
        }

        private boolean met(String container, String condition) {
            Optional<Started> other = started.stream().filter(s -> s.container().name().equals(container)).findFirst();
            if (other.isEmpty()) {
                return false;
            }
            Process p = other.get().process();
            return switch (condition) {
                case "HEALTHY" -> healthy(other.get());
                case "COMPLETE" -> !p.isAlive();
                case "SUCCESS" -> !p.isAlive() && p.exitValue() == 0;
                default -> true; // START
            };
        }

        /** Its health check passed once (ECS's HEALTHY holds from then on here: no check runs after). */
        private boolean healthy(Started s) {
            if (healthy.contains(s.container().name())) {
                return true;
            }
            List<String> check = s.container().healthCheck();
            if (check.isEmpty() || !s.process().isAlive()) {
                return false;
            }
            List<String> line = check.get(0).equals("CMD-SHELL") ? List.of("sh", "-c", String.join(" ", check.subList(1,
                    check.size()))) : check.subList(1, check.size());
            try {
                ProcessBuilder b = new ProcessBuilder(line).directory(s.folder().toFile())
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
                b.environment().clear();
                b.environment().putAll(s.environment());
                Process p = b.start();
                if (!p.waitFor(HEALTH_CHECK_TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                    p.destroyForcibly();
                    return false;
                }
                if (p.exitValue() == 0) {
                    healthy.add(s.container().name());
                    return true;
                }
                return false;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        @Override
        public void terminate() {
            signal("TERM");
        }

        @Override
        public void kill() {
            synchronized (this) {
                pending.clear(); // none starts after the kill
            }
            signal("KILL");
            for (Process t : tethers) {
                try {
                    t.getOutputStream().close(); // it ends, its group killed already
                } catch (IOException e) {
                    t.destroyForcibly();
                }
            }
            taskKeys.revoke(keys);
        }

        /** To each container's process group (its leader's pid: setsid made it so). */
        private void signal(String signal) {
            for (Started s : started) {
                try {
                    new ProcessBuilder("kill", "-s", signal, "--", "-" + s.process().pid())
                            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
                } catch (IOException e) {
                    s.process().destroyForcibly();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    s.process().destroyForcibly();
                }
            }
        }

        @Override
        public boolean essentialExited() {
            return failed || started.stream().anyMatch(s -> s.container().essential() && !s.process().isAlive());
        }

        @Override
        public boolean ended() {
            return started.stream().noneMatch(s -> s.process().isAlive());
        }
    }
}
