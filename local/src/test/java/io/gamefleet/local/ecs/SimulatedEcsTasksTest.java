package io.gamefleet.local.ecs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.domain.fakes.MutableClock;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The simulated ECS's task lifecycle on a fake launcher, the clock moved by the test: what a real
 * process cannot be made to do on cue (exit at once, refuse to start, ignore SIGTERM).
 */
class SimulatedEcsTasksTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Tasks that run until told; the test makes their essential container exit, or their launch fail. */
    private static final class FakeLauncher implements TaskLauncher {
        final List<Launch> launches = new ArrayList<>();
        final List<FakeTask> started = new ArrayList<>();
        String refusal;

        @Override
        public Running launch(Launch launch) {
            if (refusal != null) {
                throw new IllegalStateException(refusal);
            }
            launches.add(launch);
            FakeTask task = new FakeTask();
            started.add(task);
            return task;
        }
    }

    private static final class FakeTask implements TaskLauncher.Running {
        boolean exited;
        boolean terminated;
        boolean killed;
        /** Whether SIGTERM ends it (a game server that ignores it waits for SIGKILL). */
        boolean endsOnTerm = true;

        @Override
        public void terminate() {
            terminated = true;
            exited |= endsOnTerm;
        }

        @Override
        public void kill() {
            killed = true;
            exited = true;
        }

        @Override
        public boolean essentialExited() {
            return exited;
        }

        @Override
        public boolean ended() {
            return exited;
        }
    }

    private final MutableClock clock = MutableClock.startingNow();
    private final FakeLauncher launcher = new FakeLauncher();
    private final List<Map<String, Object>> events = new ArrayList<>();
    private final SimulatedEcs ecs = new SimulatedEcs(clock, Duration.ofSeconds(10), "us-east-1", "000000000000",
            Set.of("games"), launcher, URI.create("http://127.0.0.1:4590"));

    SimulatedEcsTasksTest() {
        ecs.sendEventsTo(events::add);
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private void service(int desired, String strategy) {
        ecs.registerTaskDefinition(json("{\"family\":\"arena\",\"networkMode\":\"awsvpc\",\"containerDefinitions\":["
                + "{\"name\":\"game\",\"image\":\"game:1\",\"command\":[\"./server\"],\"mountPoints\":[{\"sourceVolume\":"
                + "\"gamefleet\",\"containerPath\":\"/gamefleet\"}],\"environment\":[{\"name\":\"GSDK_CONFIG_FILE\",\"value\":"
                + "\"/gamefleet/gsdk.json\"}]},{\"name\":\"gamefleet-agent\",\"image\":\"agent:1\",\"stopTimeout\":90}]}"));
        ecs.createService(json("{\"cluster\":\"games\",\"serviceName\":\"arena\",\"taskDefinition\":\"arena\","
                + "\"desiredCount\":" + desired + ",\"capacityProviderStrategy\":" + strategy + "}"));
    }

    /** The service, its tasks RUNNING (their start delay passed). */
    private void running(int desired, String strategy) {
        service(desired, strategy);
        clock.advance(Duration.ofSeconds(10));
        ecs.tick();
    }

    private JsonNode tasks(String desiredStatus) {
        JsonNode arns = ecs.listTasks(json("{\"cluster\":\"games\",\"serviceName\":\"arena\",\"desiredStatus\":\""
                + desiredStatus + "\"}")).get("taskArns");
        if (arns.isEmpty()) { // ECS refuses to describe no tasks
            return arns;
        }
        return ecs.describeTasks(json("{\"cluster\":\"games\",\"tasks\":" + arns + "}")).get("tasks");
    }

    @Test
    void tasksRunOnceTheirStartDelayHasPassedWithEcsEndpointsOfTheirOwn() {
        service(3, "[{\"capacityProvider\":\"FARGATE\",\"base\":1,\"weight\":1},{\"capacityProvider\":\"FARGATE_SPOT\",\"weight\":3}]");
        ecs.tick();
        assertThat(tasks("RUNNING")).allSatisfy(t -> assertThat(t.get("lastStatus").asText()).isEqualTo("PROVISIONING"));
        assertThat(launcher.launches).isEmpty();

        clock.advance(Duration.ofSeconds(10));
        ecs.tick();
        assertThat(tasks("RUNNING")).allSatisfy(t -> assertThat(t.get("lastStatus").asText()).isEqualTo("RUNNING"));
        // The base of 1 on FARGATE, then 2 on FARGATE_SPOT (3:1 by weight beyond the base).
        List<String> providers = new ArrayList<>();
        tasks("RUNNING").forEach(t -> providers.add(t.get("capacityProviderName").asText()));
        assertThat(providers).containsExactlyInAnyOrder("FARGATE", "FARGATE_SPOT", "FARGATE_SPOT");

        TaskLauncher.Launch launch = launcher.launches.get(0);
        assertThat(launch.instanceId()).isEqualTo("i-" + launch.taskId().substring(0, 17));
        TaskLauncher.Container game = launch.containers().get(0);
        assertThat(game.command()).containsExactly("./server");
        assertThat(game.mountPoints()).containsEntry("/gamefleet", "gamefleet");
        assertThat(game.environment().get("ECS_CONTAINER_METADATA_URI_V4"))
                .startsWith("http://127.0.0.1:4590" + SimulatedEcs.TASK_ENDPOINTS + launch.taskId() + "/").endsWith("/metadata/game");
        assertThat(game.environment()).as("no ECS agent endpoint: tasks are protected by the backend")
                .doesNotContainKey("ECS_AGENT_URI");
        assertThat(launch.containers().get(1).command()).as("no command: the image's").isEmpty();
        assertThat(events).filteredOn(e -> ((Map<?, ?>) e.get("detail")).get("lastStatus").equals("RUNNING")).hasSize(3);
    }

    @Test
    void aTaskWhoseEssentialContainerExitedIsReplaced() {
        running(1, "[]");
        String first = tasks("RUNNING").get(0).get("taskArn").asText();
        launcher.started.get(0).exited = true;

        ecs.tick();
        JsonNode stopped = tasks("STOPPED").get(0);
        assertThat(stopped.get("taskArn").asText()).isEqualTo(first);
        assertThat(stopped.get("lastStatus").asText()).isEqualTo("STOPPED");
        assertThat(stopped.get("stopCode").asText()).isEqualTo("EssentialContainerExited");
        assertThat(launcher.started.get(0).killed).isTrue();
        JsonNode replacement = tasks("RUNNING").get(0);
        assertThat(replacement.get("taskArn").asText()).isNotEqualTo(first);
        assertThat(replacement.get("lastStatus").asText()).isEqualTo("PROVISIONING");
        assertThat(replacement.has("capacityProviderName")).isFalse();
        assertThat(replacement.get("launchType").asText()).as("no strategy, no launchType, no cluster default").isEqualTo("EC2");

        // A stopped task is shown for an hour, then forgotten.
        clock.advance(Duration.ofHours(1));
        ecs.tick();
        assertThat(tasks("STOPPED")).isEmpty();
    }

    /** The service's one task, RUNNING, and its processes ignoring SIGTERM. */
    private FakeTask runningAndIgnoringSigterm(String strategy) {
        running(1, strategy);
        FakeTask running = launcher.started.get(0);
        running.endsOnTerm = false;
        return running;
    }

    @Test
    void aTaskThatIgnoresSigtermIsKilledAtItsStopTimeout() {
        FakeTask running = runningAndIgnoringSigterm("[]");
        String arn = tasks("RUNNING").get(0).get("taskArn").asText();

        ecs.stopTask(json("{\"cluster\":\"games\",\"task\":\"" + arn + "\",\"reason\":\"by hand\"}"));
        assertThat(running.terminated).isTrue();
        clock.advance(Duration.ofSeconds(89)); // the largest stopTimeout of its containers: 90 s
        ecs.tick();
        assertThat(running.killed).isFalse();
        clock.advance(Duration.ofSeconds(1));
        ecs.tick();
        assertThat(running.killed).isTrue();
        JsonNode stopped = tasks("STOPPED").get(0);
        assertThat(stopped.get("stopCode").asText()).isEqualTo("UserInitiated");
        assertThat(stopped.get("stoppedReason").asText()).isEqualTo("by hand");
    }

    @Test
    void stopTaskThenALowerDesiredCountEndsTheTaskWithNoReplacement() {
        running(2, "[]");
        String ended = tasks("RUNNING").get(0).get("taskArn").asText();

        // As the ECS adapter ends a task: StopTask, then UpdateService desired count - 1.
        ecs.stopTask(json("{\"cluster\":\"games\",\"task\":\"" + ended + "\"}"));
        ecs.updateService(json("{\"cluster\":\"games\",\"service\":\"arena\",\"desiredCount\":1}"));
        clock.advance(Duration.ofSeconds(10));
        ecs.tick();
        assertThat(tasks("RUNNING")).hasSize(1).noneMatch(t -> t.get("taskArn").asText().equals(ended));
        assertThat(tasks("STOPPED")).hasSize(1);
        assertThat(launcher.launches).hasSize(2);
    }

    @Test
    void aTaskThatCannotStartStopsWithTheReasonAndIsTriedAgain() {
        service(1, "[]");
        launcher.refusal = "container gamefleet-agent has no command, and its image agent:1 is not run locally";
        clock.advance(Duration.ofSeconds(10));
        ecs.tick();
        JsonNode failed = tasks("STOPPED").get(0);
        assertThat(failed.get("stopCode").asText()).isEqualTo("TaskFailedToStart");
        assertThat(failed.get("stoppedReason").asText()).contains("is not run locally");
        assertThat(tasks("RUNNING")).hasSize(1);

        launcher.refusal = null;
        clock.advance(Duration.ofSeconds(10));
        ecs.tick();
        assertThat(tasks("RUNNING").get(0).get("lastStatus").asText()).isEqualTo("RUNNING");
    }

    @Test
    void anInterruptWarnsWithSigtermAndKillsTwoMinutesLater() {
        FakeTask running = runningAndIgnoringSigterm("[{\"capacityProvider\":\"FARGATE_SPOT\",\"weight\":1}]");
        String arn = tasks("RUNNING").get(0).get("taskArn").asText();
        String instanceId = launcher.launches.get(0).instanceId();

        SimulatedEcs.Interrupted interrupted = ecs.interrupt(instanceId).orElseThrow();
        assertThat(interrupted.taskArn()).isEqualTo(arn);
        assertThat(interrupted.killAt()).isEqualTo(clock.instant().plus(Duration.ofMinutes(2)));
        assertThat(running.terminated).isTrue();
        assertThat(ecs.interrupt(instanceId).orElseThrow().killAt()).as("again: the same notice").isEqualTo(interrupted.killAt());

        clock.advance(Duration.ofSeconds(119));
        ecs.tick();
        assertThat(running.killed).isFalse();
        clock.advance(Duration.ofSeconds(1));
        ecs.tick();
        assertThat(running.killed).isTrue();
        assertThat(events).filteredOn(e -> ((Map<?, ?>) e.get("detail")).get("taskArn").equals(arn))
                .extracting(e -> ((Map<?, ?>) e.get("detail")).get("lastStatus") + "/" + ((Map<?, ?>) e.get("detail")).get("desiredStatus"))
                .containsExactly("RUNNING/RUNNING", "RUNNING/STOPPED", "STOPPED/STOPPED");
        assertThat(ecs.interrupt(instanceId)).as("a stopped task").isEmpty();
    }
}
