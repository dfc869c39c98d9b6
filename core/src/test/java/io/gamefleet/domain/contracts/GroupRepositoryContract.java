package io.gamefleet.domain.contracts;

import static io.gamefleet.domain.contracts.ContractSupport.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.domain.AutoScalingPolicy;
import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.ClaimStrategy;
import io.gamefleet.domain.ConcurrentUpdateException;
import io.gamefleet.domain.ContainerCompute;
import io.gamefleet.domain.DeleteOption;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupAction;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerProtectionPolicy;
import io.gamefleet.domain.GameServerRepository;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.GroupRepository;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.LaunchTemplate;
import io.gamefleet.domain.Page;
import io.gamefleet.domain.Tag;
import io.gamefleet.domain.UtilizationStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link GroupRepository} does, seen through the port, including the gate each write
 * keeps for the game server repository's claims. The listing spans every group of the store, so
 * the listing test looks at its own groups only.
 */
public abstract class GroupRepositoryContract {
    /** The repository under test. */
    protected abstract GroupRepository newRepository();

    /** The game server repository that reads the gates the group repository writes. */
    protected abstract GameServerRepository newGameServerRepository();

    private GroupRepository groups;
    private GameServerRepository servers;
    private String name;

    @BeforeEach
    void repositories() {
        groups = newRepository();
        servers = newGameServerRepository();
        name = ContractSupport.unique("group");
    }

    private static GameServerGroup group(String name, Instant created) {
        return GameServerGroup.builder()
                .name(name)
                .arn("arn:aws:gamelift:us-east-1:123456789012:gameservergroup/" + name)
                .roleArn("arn:aws:iam::123456789012:role/fleetiq")
                .instanceDefinitions(List.of(new InstanceDefinition("c5.large", "2"), new InstanceDefinition("c5a.large", null)))
                .balancingStrategy(BalancingStrategy.ON_DEMAND_ONLY)
                .protectionPolicy(GameServerProtectionPolicy.FULL_PROTECTION)
                .autoScalingGroupArn("arn:aws:autoscaling:us-east-1:123456789012:autoScalingGroup:x:autoScalingGroupName/gamefleet-" + name)
                .status(GameServerGroupStatus.NEW)
                .statusReason("because")
                .suspendedActions(Set.of(GameServerGroupAction.REPLACE_INSTANCE_TYPES))
                .creationTime(created)
                .lastUpdatedTime(created.plusMillis(1))
                .minSize(1)
                .maxSize(4)
                .launchTemplate(new LaunchTemplate(null, "my-template", "$Latest"))
                .autoScalingPolicy(new AutoScalingPolicy(60, 75.5))
                .vpcSubnets(List.of("subnet-1", "subnet-2"))
                .tags(List.of(new Tag("team", "blue"), new Tag("env", "test")))
                .deleteOption(DeleteOption.SAFE_DELETE)
                .build();
    }

    /** The group's status as its gate tells claimers. */
    private Optional<GameServerGroupStatus> gate(String group) {
        return servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 10).groupStatus();
    }

    @Test
    void createThenFind() {
        GameServerGroup g = group(name, T0);
        groups.create(g);
        assertThat(groups.find(name)).contains(g);
        assertThat(groups.find(name + "-missing")).isEmpty();
        assertThat(gate(name)).contains(GameServerGroupStatus.NEW);
    }

    @Test
    void findStatusTellsTheNameStatusExpiryAndMaxSizeAsFindDoes() {
        assertThat(groups.findStatus(name)).isEmpty();
        GameServerGroup g = group(name, T0);
        groups.create(g);
        GameServerGroup deleted = groups.update(g.toBuilder().status(GameServerGroupStatus.DELETED)
                .expiresAt(Instant.ofEpochSecond(T0.getEpochSecond() + 86_400)).build());
        GameServerGroup status = groups.findStatus(name).orElseThrow();
        assertThat(status.name()).isEqualTo(name);
        assertThat(status.status()).isEqualTo(GameServerGroupStatus.DELETED);
        assertThat(status.expiresAt()).isEqualTo(deleted.expiresAt());
        assertThat(status.maxSize()).as("a registration places its server by it").isEqualTo(deleted.maxSize()).isPositive();
    }

    @Test
    void aSparseGroupSurvivesTheRoundTrip() {
        GameServerGroup minimal = GameServerGroup.builder().name(name).creationTime(T0).lastUpdatedTime(T0)
                .launchTemplate(new LaunchTemplate("lt-123", null, null)).build();
        groups.create(minimal);
        assertThat(groups.find(name)).contains(minimal);
    }

    /**
     * A container group keeps its ECS service's compute and its AutoScalingPolicy, and has no
     * template or instance definitions to keep.
     */
    @Test
    void aContainerGroupKeepsItsContainersThroughWritesAndAGroupOnEc2HasNone() {
        GameServerGroup containers = group(name, T0).toBuilder().launchTemplate(null).instanceDefinitions(List.of())
                .autoScalingGroupName("gamefleet-tasks_" + name)
                .containers(new ContainerCompute("arn:aws:ecs:us-east-1:123456789012:task-definition/game:3", "server",
                        ContainerCompute.ContainerCapacity.FARGATE_SPOT, 2)).build();
        groups.create(containers);
        assertThat(groups.find(name)).contains(containers);
        GameServerGroup active = groups.update(containers.toBuilder().status(GameServerGroupStatus.ACTIVE).build());
        assertThat(groups.find(name)).contains(active);
        assertThat(groups.find(name).orElseThrow().isContainerGroup()).isTrue();
        assertThat(groups.find(name).orElseThrow().autoScalingPolicy()).as("the balancer tracks it")
                .isEqualTo(new AutoScalingPolicy(60, 75.5));

        String onEc2 = name + "-ec2";
        groups.create(group(onEc2, T0));
        assertThat(groups.find(onEc2).orElseThrow().containers()).isNull();
    }

    @Test
    void timesAreKeptToTheMillisecondAndTheExpiryToTheSecond() {
        GameServerGroup g = group(name, T0.plusNanos(1_234_567)).toBuilder()
                .lastUpdatedTime(T0.plusNanos(2_999_999)).expiresAt(T0.plusMillis(86_400_999)).build();
        groups.create(g);
        assertThat(groups.find(name)).contains(g.toBuilder().creationTime(T0.plusMillis(1))
                .lastUpdatedTime(T0.plusMillis(2)).expiresAt(T0.plusSeconds(86_400)).build());
    }

    @Test
    void aNameIsTakenOnce() {
        GameServerGroup g = group(name, T0);
        groups.create(g);
        GamefleetException e = catchThrowableOfType(GamefleetException.class,
                () -> groups.create(group(name, T0.plusSeconds(5)).toBuilder().roleArn("other").build()));
        assertThat(e).isNotNull();
        assertThat(e.errorType()).isEqualTo("ConflictException");
        assertThat(groups.find(name)).contains(g);

        groups.update(g.toBuilder().status(GameServerGroupStatus.DELETE_SCHEDULED).build());
        assertThat(catchThrowableOfType(GamefleetException.class, () -> groups.create(group(name, T0))))
                .as("while being deleted").isNotNull();
    }

    @Test
    void aDeletedGroupStaysReadableAndItsNameCanBeTakenAgain() {
        GameServerGroup g = group(name, T0);
        groups.create(g);
        GameServerGroup deleted = groups.update(g.toBuilder().status(GameServerGroupStatus.DELETED)
                .expiresAt(T0.plusSeconds(86_400)).build());
        assertThat(deleted.version()).isEqualTo(1);
        assertThat(groups.find(name)).contains(deleted);
        assertThat(gate(name)).isEmpty();

        GameServerGroup again = group(name, T0.plusSeconds(100)).toBuilder().roleArn("arn:again").build();
        groups.create(again);

        assertThat(groups.find(name)).as("replaced, version and all").contains(again);
        assertThat(gate(name)).contains(GameServerGroupStatus.NEW);
    }

    @Test
    void updateStoresTheNextVersionAndRefusesAStaleOne() {
        GameServerGroup g = group(name, T0);
        groups.create(g);

        GameServerGroup v1 = groups.update(g.toBuilder().status(GameServerGroupStatus.ACTIVE).build());
        assertThat(v1).isEqualTo(g.toBuilder().status(GameServerGroupStatus.ACTIVE).version(1).build());
        assertThat(groups.find(name)).contains(v1);

        GameServerGroup stale = g.toBuilder().status(GameServerGroupStatus.ERROR).statusReason("stale").build();
        assertThatThrownBy(() -> groups.update(stale)).isInstanceOf(ConcurrentUpdateException.class);
        GameServerGroup ahead = v1.toBuilder().version(5).build();
        assertThatThrownBy(() -> groups.update(ahead)).isInstanceOf(ConcurrentUpdateException.class);
        assertThat(groups.find(name)).contains(v1);
        assertThat(gate(name)).as("a refused update writes no gate").contains(GameServerGroupStatus.ACTIVE);

        GameServerGroup v2 = groups.update(v1.toBuilder().minSize(2).build());
        assertThat(v2.version()).isEqualTo(2);
        assertThat(groups.find(name)).contains(v2);
    }

    @Test
    void updatingAGroupThatDoesNotExistIsRefused() {
        assertThatThrownBy(() -> groups.update(group(name, T0))).isInstanceOf(ConcurrentUpdateException.class);
        assertThat(groups.find(name)).isEmpty();
        assertThat(gate(name)).isEmpty();
    }

    @Test
    void theGateFollowsEveryStatusAndGoesWithDeleted() {
        GameServerGroup g = group(name, T0);
        groups.create(g);
        for (GameServerGroupStatus status : List.of(GameServerGroupStatus.ACTIVATING, GameServerGroupStatus.ACTIVE,
                GameServerGroupStatus.ERROR, GameServerGroupStatus.DELETE_SCHEDULED, GameServerGroupStatus.DELETING)) {
            g = groups.update(g.toBuilder().status(status).build());
            assertThat(gate(name)).contains(status);
        }
        groups.update(g.toBuilder().status(GameServerGroupStatus.DELETED).build());
        assertThat(gate(name)).isEmpty();
        assertThat(groups.find(name)).map(GameServerGroup::status).contains(GameServerGroupStatus.DELETED);
    }

    @Test
    void theClaimStrategyIsKeptOnTheGroupAndCarriedByItsGatesToEveryClaimRead() {
        GameServerGroup g = group(name, T0);
        groups.create(g);
        assertThat(groups.find(name).orElseThrow().claimStrategy()).as("none set: FleetIQ's order")
                .isEqualTo(ClaimStrategy.FLEETIQ);
        g = groups.update(g.toBuilder().status(GameServerGroupStatus.ACTIVE).claimStrategy(ClaimStrategy.PACKED).build());
        assertThat(groups.find(name).orElseThrow().claimStrategy()).isEqualTo(ClaimStrategy.PACKED);
        servers.register(GameServer.builder().gameServerGroupName(name).gameServerId(ContractSupport.unique("gs"))
                .instanceId("i-1").utilizationStatus(UtilizationStatus.AVAILABLE).registrationTime(T0)
                .lastHealthCheckTime(T0).instanceStatus(InstanceStatus.ACTIVE).instanceLaunchTime(T0.minusSeconds(60))
                .build(), g.maxSize(), 16);
        for (int read = 0; read < 2; read++) { // a store's first claim read of a group, and a later one
            var candidates = servers.someClaimCandidates(name, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 10);
            assertThat(candidates.servers()).hasSize(1);
            assertThat(candidates.claimStrategy()).contains(ClaimStrategy.PACKED);
        }
        assertThat(servers.claimCandidates(name, InstanceStatus.DRAINING, T0, Instant.EPOCH, 10).claimStrategy())
                .as("the DRAINING bucket has no gate").isEmpty();
        g = groups.update(g.toBuilder().status(GameServerGroupStatus.ERROR).build());
        assertThat(servers.claimCandidates(name, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 10).claimStrategy())
                .as("kept by every later write").contains(ClaimStrategy.PACKED);
        groups.update(g.toBuilder().claimStrategy(ClaimStrategy.FLEETIQ).build());
        assertThat(groups.find(name).orElseThrow().claimStrategy()).isEqualTo(ClaimStrategy.FLEETIQ);
        assertThat(servers.claimCandidates(name, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 10).claimStrategy())
                .contains(ClaimStrategy.FLEETIQ);
    }

    @Test
    void listPagesThroughEveryGroupInCreationOrder() {
        String prefix = name + "-";
        for (int n : new int[] {3, 0, 4, 1, 2}) {
            groups.create(group(prefix + n, T0.minusSeconds(100 - n)));
        }
        GameServerGroup deleted = groups.find(prefix + 3).orElseThrow();
        groups.update(deleted.toBuilder().status(GameServerGroupStatus.DELETED).expiresAt(T0).build());
        groups.create(group(prefix + "same-time-b", T0.minusSeconds(95)));
        groups.create(group(prefix + "same-time-a", T0.minusSeconds(95)));

        List<String> listed = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        int pages = 0;
        do {
            Page<GameServerGroup> page = groups.list(2, cursor);
            assertThat(page.items()).hasSizeLessThanOrEqualTo(2);
            page.items().forEach(g -> listed.add(g.name()));
            cursor = page.cursor();
            assertThat(++pages).as("paging ends").isLessThan(1000);
        } while (cursor.isPresent());

        assertThat(listed).doesNotHaveDuplicates();
        assertThat(listed.stream().filter(n -> n.startsWith(prefix)).toList()).as("DELETED ones too").containsExactly(
                prefix + 0, prefix + 1, prefix + 2, prefix + 3, prefix + 4, prefix + "same-time-a", prefix + "same-time-b");
        assertThat(groups.list(1000, Optional.empty()).items()).extracting(GameServerGroup::name)
                .filteredOn(n -> n.startsWith(prefix)).as("one page as the pages")
                .containsExactly(prefix + 0, prefix + 1, prefix + 2, prefix + 3, prefix + 4, prefix + "same-time-a",
                        prefix + "same-time-b");
    }
}
