package io.gamefleet.domain.fakes;

import io.gamefleet.domain.TaskDefinitions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Task definitions a test puts ({@link #put}), found by the name they were put under or by their
 * ARN; any other is not found. Every name asked for is recorded ({@link #asked}).
 */
public final class FakeTaskDefinitions implements TaskDefinitions {
    private final Map<String, TaskDefinition> byName = new ConcurrentHashMap<>();
    private final List<String> asked = new CopyOnWriteArrayList<>();

    /** A definition a Fargate Spot group can run: awsvpc, FARGATE, x86-64, its one essential container {@code server} on port 7777. */
    public static TaskDefinition runnable(String family) {
        return new TaskDefinition(arn(family), List.of(new Container("server", "example/game:1", true, List.of(7777)),
                new Container("log-router", "example/fluent-bit:1", false, List.of())),
                Set.of("FARGATE", "EC2"), "X86_64", "awsvpc");
    }

    /** The ARN of the first revision of a family, as ECS names it. */
    public static String arn(String family) {
        return "arn:aws:ecs:us-east-1:123456789012:task-definition/" + family + ":1";
    }

    public FakeTaskDefinitions put(String name, TaskDefinition definition) {
        byName.put(name, definition);
        byName.put(definition.arn(), definition);
        return this;
    }

    public List<String> asked() {
        return List.copyOf(asked);
    }

    @Override
    public Optional<TaskDefinition> describe(String taskDefinition) {
        asked.add(taskDefinition);
        return Optional.ofNullable(byName.get(taskDefinition));
    }
}
