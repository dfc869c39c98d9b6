package io.gamefleet.local.ecs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.local.edge.Principal;
import io.gamefleet.local.edge.PrincipalRegistry;
import io.gamefleet.local.edge.Principals;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulated ECS's real task launcher: containers' commands as process groups of this machine,
 * signalled whole, tethered to this JVM, with a task's volumes as its own folders and its keys in
 * every container, as ECS gives every container the task role. It waits for real processes (bounded), never for the clock.
 */
class SimulatedEcsProcessesTest {
    private static final Duration PROCESS_WAIT = Duration.ofSeconds(20);
    private static final String TASK_ID = "0123456789abcdef0123456789abcdef";
    private static final String INSTANCE_ID = "i-0123456789abcdef0";

    @TempDir
    Path folder;

    private final PrincipalRegistry principals = new PrincipalRegistry(List.of());
    /** As the profile issues them: the edge's principals admit a task's keys until its kill. */
    private final TaskKeys keys = new TaskKeys() {
        @Override
        public Keys issue(String instanceId) {
            Principal p = Principals.instance(instanceId);
            principals.add(p);
            return new Keys(p.accessKeyId(), p.secretAccessKey());
        }

        @Override
        public void revoke(Keys issued) {
            principals.remove(issued.accessKeyId());
        }
    };
    private TaskLauncher.Running running;

    private ProcessTaskLauncher launcher() {
        return new ProcessTaskLauncher(folder, keys, Map.of("gamefleet/agent:1", (work, environment) -> List.of("sh", "-c", "env > env.txt; exec sleep 600")));
    }

    private static TaskLauncher.Container container(String name, String image, List<String> command,
            Map<String, String> environment, Map<String, String> mountPoints) {
        return new TaskLauncher.Container(name, image, command, true, environment, mountPoints);
    }

    private TaskLauncher.Running launch(TaskLauncher.Container... containers) {
        running = launcher().launch(new TaskLauncher.Launch("arn:aws:ecs:us-east-1:000000000000:task/games/" + TASK_ID,
                TASK_ID, INSTANCE_ID, List.of(containers)));
        return running;
    }

    @AfterEach
    void killWhatIsLeft() {
        if (running != null) {
            running.kill();
        }
    }

    private static void await(String what, BooleanSupplier done) {
        Instant deadline = Instant.now().plus(PROCESS_WAIT);
        while (!done.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(what + " did not happen within " + PROCESS_WAIT);
            }
            Thread.onSpinWait();
        }
    }

    private String written(String container, String file) throws Exception {
        Path path = folder.resolve(TASK_ID).resolve(container).resolve(file);
        await(container + " writing " + file, () -> {
            try {
                return Files.exists(path) && Files.readString(path).endsWith("\n");
            } catch (java.io.IOException e) {
                return false;
            }
        });
        return Files.readString(path);
    }

    private static ProcessHandle process(String pid) {
        return ProcessHandle.of(Long.parseLong(pid.trim())).orElseThrow();
    }

    @Test
    void aContainerWaitingForAnotherToBeHealthyStartsOnlyOnceItsHealthCheckPasses() throws Exception {
        Map<String, String> shared = Map.of("READY_FILE", "/shared/ready");
        TaskLauncher.Container agent = new TaskLauncher.Container("gamefleet-agent", "gamefleet/agent:1",
                List.of("sh", "-c", "exec sleep 600"), true, shared, Map.of("/shared", "s"), Map.of(),
                List.of("CMD-SHELL", "test -s \"$READY_FILE\""));
        TaskLauncher.Container game = new TaskLauncher.Container("game", "studio/game:1",
                List.of("sh", "-c", "echo started > started.txt; exec sleep 600"), true, shared, Map.of("/shared", "s"),
                Map.of("gamefleet-agent", "HEALTHY"), List.of());
        TaskLauncher.Running task = launch(agent, game);
        task.advance();
        Path started = folder.resolve(TASK_ID).resolve("game").resolve("started.txt");
        assertThat(started).as("not before its dependency is healthy").doesNotExist();

        Files.writeString(folder.resolve(TASK_ID).resolve("volumes").resolve("s").resolve("ready"), "yes");
        task.advance();
        assertThat(written("game", "started.txt")).isEqualTo("started\n");
        assertThat(task.essentialExited()).isFalse();
    }

    @Test
    void sigtermReachesEveryProcessOfTheContainerAndTheTaskEndsWithThem() throws Exception {
        TaskLauncher.Running task = launch(container("game", "game:1",
                List.of("sh", "-c", "sleep 600 & echo $! > child.pid; wait"), Map.of(), Map.of()));
        ProcessHandle child = process(written("game", "child.pid"));
        assertThat(task.ended()).isFalse();
        assertThat(task.essentialExited()).isFalse();

        task.terminate();
        await("the container's child ending", () -> !child.isAlive());
        await("the task ending", task::ended);
        assertThat(task.essentialExited()).isTrue();
    }

    @Test
    void theTasksProcessesEndWhenTheirTetherToThisJvmGoes() throws Exception {
        launch(container("game", "game:1", List.of("sh", "-c", "echo $$ > self.pid; exec sleep 600"), Map.of(), Map.of()));
        ProcessHandle game = process(written("game", "self.pid"));
        // The tether's cat returns as it would when this JVM's end closes its pipe.
        java.util.concurrent.atomic.AtomicReference<ProcessHandle> cat = new java.util.concurrent.atomic.AtomicReference<>();
        await("the task's tether starting", () -> {
            ProcessHandle.current().descendants().filter(p -> p.info().command().orElse("").endsWith("/cat"))
                    .filter(p -> p.parent().flatMap(sh -> sh.info().arguments()).map(List::of).orElse(List.of())
                            .contains("-" + game.pid()))
                    .findFirst().ifPresent(cat::set);
            return cat.get() != null;
        });
        cat.get().destroy();
        await("the game ending with its tether", () -> !game.isAlive());
    }

    @Test
    void volumesAreTheTasksFoldersAndEveryContainerGetsTheTasksKeys() throws Exception {
        launch(container("game", "game:1", List.of("sh", "-c", "env > env.txt; exec sleep 600"),
                        Map.of("GSDK_CONFIG_FILE", "/gamefleet/gsdk.json", "OTHER", "/gamefleetish"),
                        Map.of("/gamefleet", "gamefleet")),
                container("gamefleet-agent", "gamefleet/agent:1", List.of(), Map.of(), Map.of()));
        String game = written("game", "env.txt");
        Path volume = folder.resolve(TASK_ID).resolve("volumes").resolve("gamefleet");
        assertThat(game).contains("GSDK_CONFIG_FILE=" + volume.resolve("gsdk.json") + "\n")
                .contains("OTHER=/gamefleetish\n");
        assertThat(volume).isDirectory();

        // The agent image's stand-in ran, with the task's keys: a GAME_SERVER bound to the task's instance id;
        // the game server's container got the very same ones.
        String agent = written("gamefleet-agent", "env.txt");
        String key = agent.lines().filter(l -> l.startsWith("AWS_ACCESS_KEY_ID=")).findFirst().orElseThrow().substring(18);
        assertThat(principals.find(key)).hasValueSatisfying(p -> assertThat(p.instanceId()).contains(INSTANCE_ID));
        String secret = principals.find(key).orElseThrow().secretAccessKey();
        assertThat(game).contains("AWS_ACCESS_KEY_ID=" + key + "\n").contains("AWS_SECRET_ACCESS_KEY=" + secret + "\n");
        running.kill();
        assertThat(principals.find(key)).as("taken back at the kill").isEmpty();
    }

    @Test
    void aContainerWithNoCommandAndNoStandInFailsTheLaunchAndLeavesNothingRunning() {
        assertThatThrownBy(() -> launch(
                container("game", "game:1", List.of("sh", "-c", "exec sleep 601"), Map.of(), Map.of()),
                container("other", "somebody/else:2", List.of(), Map.of(), Map.of())))
                .hasMessageContaining("container other has no command, and its image somebody/else:2 is not run locally");
        await("the started container ending", () -> ProcessHandle.current().descendants()
                .noneMatch(p -> p.info().arguments().map(List::of).orElse(List.of()).stream().anyMatch(a -> a.contains("601"))));
    }
}
