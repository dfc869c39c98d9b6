package io.gamefleet.adapters.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.domain.AutoScalingPolicy;
import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.ConcurrentUpdateException;
import io.gamefleet.domain.DeleteOption;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupAction;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerProtectionPolicy;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.LaunchTemplate;
import io.gamefleet.domain.Page;
import io.gamefleet.domain.Tag;
import io.gamefleet.testing.Dynoxide;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class DynamoGroupRepositoryTest {
    @RegisterExtension
    static final Dynoxide DYNAMO = new Dynoxide();

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private static DynamoGroupRepository groups;
    private static DynamoGameServerRepository servers;

    private String name;

    @BeforeAll
    static void repositories() {
        groups = new DynamoGroupRepository(DYNAMO.client(), DYNAMO.enhanced(), DYNAMO.tableNames());
        servers = new DynamoGameServerRepository(DYNAMO.client(), DYNAMO.tableNames());
    }

    @BeforeEach
    void uniqueName() {
        name = "group-" + SEQUENCE.incrementAndGet();
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
                .version(0)
                .build();
    }

    private Optional<GameServerGroupStatus> gate(String group) {
        return servers.claimCandidates(group, InstanceStatus.ACTIVE, T0, Instant.EPOCH, 10).groupStatus();
    }

    @Test
    void createThenFindReturnsTheSameGroup() {
        GameServerGroup g = group(name, T0);
        groups.create(g);
        assertThat(groups.find(name)).contains(g);
        assertThat(groups.find(name + "-missing")).isEmpty();
        assertThat(gate(name)).contains(GameServerGroupStatus.NEW);
    }

    @Test
    void sparseFieldsSurviveTheRoundTrip() {
        GameServerGroup minimal = GameServerGroup.builder().name(name).creationTime(T0).lastUpdatedTime(T0)
                .launchTemplate(new LaunchTemplate("lt-123", null, null)).build();
        groups.create(minimal);
        assertThat(groups.find(name)).contains(minimal);
    }

    @Test
    void aNameIsCreatedOnce() {
        GameServerGroup g = group(name, T0);
        groups.create(g);

        GamefleetException e = catchThrowableOfType(GamefleetException.class,
                () -> groups.create(group(name, T0.plusSeconds(5)).toBuilder().roleArn("other").build()));

        assertThat(e).isNotNull();
        assertThat(e.errorType()).isEqualTo("ConflictException");
        assertThat(groups.find(name)).contains(g);
    }

    @Test
    void aDeletedGroupsNameCanBeCreatedAgain() {
        GameServerGroup g = group(name, T0);
        groups.create(g);
        GameServerGroup deleted = groups.update(g.toBuilder().status(GameServerGroupStatus.DELETED)
                .expiresAt(T0.plusSeconds(86_400)).build());
        assertThat(gate(name)).isEmpty();

        GameServerGroup again = group(name, T0.plusSeconds(100)).toBuilder().roleArn("arn:again").build();
        groups.create(again);

        assertThat(groups.find(name)).contains(again);
        assertThat(deleted.version()).isEqualTo(1);
        assertThat(gate(name)).contains(GameServerGroupStatus.NEW);
    }

    @Test
    void updateStoresTheNextVersionAndRefusesAStaleOne() {
        GameServerGroup g = group(name, T0);
        groups.create(g);

        GameServerGroup v1 = groups.update(g.toBuilder().status(GameServerGroupStatus.ACTIVE).build());
        assertThat(v1.version()).isEqualTo(1);
        assertThat(groups.find(name)).contains(v1);

        GameServerGroup stale = g.toBuilder().status(GameServerGroupStatus.ERROR).statusReason("stale").build();
        assertThatThrownBy(() -> groups.update(stale)).isInstanceOf(ConcurrentUpdateException.class);
        assertThat(groups.find(name)).contains(v1);
        assertThat(gate(name)).as("the gate is not written by a refused update").contains(GameServerGroupStatus.ACTIVE);

        GameServerGroup v2 = groups.update(v1.toBuilder().minSize(2).build());
        assertThat(v2.version()).isEqualTo(2);
        assertThat(groups.find(name).orElseThrow().minSize()).isEqualTo(2);
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
    void listPagesThroughGroupsInCreationOrder() {
        // The listing spans the whole table (other tests' groups too): look at this test's groups only.
        String prefix = name + "-";
        int[] creationOrder = {3, 0, 4, 1, 2};
        for (int n : creationOrder) {
            groups.create(group(prefix + n, Instant.parse("2001-01-01T00:00:00Z").plusSeconds(n)));
        }
        List<String> listed = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        int pages = 0;
        do {
            Page<GameServerGroup> page = groups.list(2, cursor);
            assertThat(page.items().size()).isLessThanOrEqualTo(2);
            page.items().forEach(g -> listed.add(g.name()));
            cursor = page.cursor();
            assertThat(++pages).isLessThan(100);
        } while (cursor.isPresent());

        assertThat(listed).doesNotHaveDuplicates();
        assertThat(listed.stream().filter(n -> n.startsWith(prefix)).toList())
                .containsExactly(prefix + 0, prefix + 1, prefix + 2, prefix + 3, prefix + 4);
        assertThat(groups.list(100, Optional.empty()).items()).extracting(GameServerGroup::name)
                .startsWith(prefix + 0, prefix + 1, prefix + 2, prefix + 3, prefix + 4);
    }
}
