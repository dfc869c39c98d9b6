package io.gamefleet.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.domain.ContainerCompute.ContainerCapacity;
import io.gamefleet.domain.TaskDefinitions.Container;
import io.gamefleet.domain.TaskDefinitions.TaskDefinition;
import io.gamefleet.domain.fakes.FakeTaskDefinitions;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What task definition a container group can run, each refusal naming the member at fault. */
class ContainerGroupRulesTest {
    private static final TaskDefinition RUNNABLE = FakeTaskDefinitions.runnable("game");
    private static final ContainerCompute SPOT = new ContainerCompute("game", null, ContainerCapacity.FARGATE_SPOT, 0);

    private static void refused(ContainerCompute requested, TaskDefinition definition, String message) {
        GamefleetException e = catchThrowableOfType(() -> ContainerGroupRules.check(requested, Optional.ofNullable(definition)),
                GamefleetException.class);
        assertThat(e).as("refused").isNotNull();
        assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_REQUEST);
        assertThat(e).hasMessageStartingWith(message);
    }

    private static TaskDefinition with(List<Container> containers, Set<String> compatibilities, String architecture,
            String networkMode) {
        return new TaskDefinition(RUNNABLE.arn(), containers, compatibilities, architecture, networkMode);
    }

    @Test
    void theOnlyEssentialContainerRunsTheGameServerAndTheRevisionCheckedIsPinned() {
        assertThat(ContainerGroupRules.check(SPOT, Optional.of(RUNNABLE))).isEqualTo(
                new ContainerCompute(RUNNABLE.arn(), "server", ContainerCapacity.FARGATE_SPOT, 0));
        assertThat(ContainerGroupRules.check(new ContainerCompute("game", "server", ContainerCapacity.EC2, 0),
                Optional.of(RUNNABLE)).gameServerContainer()).isEqualTo("server");
        // No runtime platform is x86-64.
        assertThat(ContainerGroupRules.check(SPOT, Optional.of(with(RUNNABLE.containers(), Set.of("FARGATE"), null,
                "awsvpc"))).onDemandBase()).isZero();
    }

    @Test
    void aDefinitionThatDoesNotExistIsRefused() {
        refused(SPOT, null, "TaskDefinition: game is not a task definition of this account and region");
    }

    @Test
    void aDefinitionWithoutAnEssentialContainerIsRefused() {
        refused(SPOT, with(List.of(new Container("helper", "x", false, List.of(7777))), Set.of("FARGATE"), "X86_64",
                "awsvpc"), "TaskDefinition: it has no essential container");
    }

    @Test
    void twoEssentialContainersNeedTheGameServersNamed() {
        TaskDefinition two = with(List.of(new Container("server", "x", true, List.of(7777)),
                new Container("voice", "y", true, List.of(9000))), Set.of("FARGATE"), "X86_64", "awsvpc");
        refused(SPOT, two, "GameServerContainerName: is required");
        assertThat(ContainerGroupRules.check(new ContainerCompute("game", "voice", ContainerCapacity.FARGATE_SPOT, 0),
                Optional.of(two)).gameServerContainer()).isEqualTo("voice");
    }

    @Test
    void theNamedContainerMustExistAndBeEssential() {
        refused(new ContainerCompute("game", "nope", ContainerCapacity.FARGATE_SPOT, 0), RUNNABLE,
                "GameServerContainerName: the task definition has no container nope; it has [server, log-router]");
        refused(new ContainerCompute("game", "log-router", ContainerCapacity.FARGATE_SPOT, 0), RUNNABLE,
                "GameServerContainerName: container log-router is not essential");
    }

    @Test
    void theGameServersContainerNeedsAPortMapping() {
        refused(SPOT, with(List.of(new Container("server", "x", true, List.of())), Set.of("FARGATE"), "X86_64", "awsvpc"),
                "TaskDefinition: container server has no port mapping");
    }

    @Test
    void fargateSpotNeedsFargateCompatibilityAndX86() {
        refused(SPOT, with(RUNNABLE.containers(), Set.of("EC2"), "X86_64", "awsvpc"),
                "Capacity: FARGATE_SPOT needs a task definition compatible with FARGATE");
        refused(SPOT, with(RUNNABLE.containers(), Set.of("FARGATE"), "ARM64", "awsvpc"),
                "Capacity: Fargate Spot runs x86-64 only");
    }

    @Test
    void ec2CapacityNeedsEc2CompatibilityAndHasNoOnDemandBase() {
        refused(new ContainerCompute("game", null, ContainerCapacity.EC2, 0),
                with(RUNNABLE.containers(), Set.of("FARGATE"), "X86_64", "awsvpc"),
                "Capacity: EC2 needs a task definition compatible with EC2");
        refused(new ContainerCompute("game", null, ContainerCapacity.EC2, 1), RUNNABLE,
                "OnDemandBase: only FARGATE_SPOT has an On-Demand base");
        // ARM64 is EC2's to run.
        assertThat(ContainerGroupRules.check(new ContainerCompute("game", null, ContainerCapacity.EC2, 0),
                Optional.of(with(RUNNABLE.containers(), Set.of("EC2"), "ARM64", "awsvpc"))).capacity())
                .isEqualTo(ContainerCapacity.EC2);
    }

    @Test
    void onlyAwsvpcTasksAndNoContainerNamedAsTheAgent() {
        refused(SPOT, with(RUNNABLE.containers(), Set.of("FARGATE"), "X86_64", "bridge"),
                "TaskDefinition: its network mode is bridge; a container group's tasks need awsvpc");
        refused(SPOT, with(List.of(new Container("server", "x", true, List.of(7777)),
                new Container("gamefleet-agent", "y", false, List.of())), Set.of("FARGATE"), "X86_64", "awsvpc"),
                "TaskDefinition: its container gamefleet-agent has the name of the agent sidecar");
    }
}
