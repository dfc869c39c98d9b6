package io.gamefleet.adapters.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.Page;
import io.gamefleet.testing.Dynoxide;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class DynamoInstanceRepositoryTest {
    @RegisterExtension
    static final Dynoxide DYNAMO = new Dynoxide();

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private static DynamoInstanceRepository instances;

    private String group;

    @BeforeAll
    static void repository() {
        instances = new DynamoInstanceRepository(DYNAMO.client(), DYNAMO.enhanced(), DYNAMO.tableNames());
    }

    @BeforeEach
    void uniqueGroup() {
        group = "group-" + SEQUENCE.incrementAndGet();
    }

    private GameServerInstance instance(String group, String id) {
        return new GameServerInstance(group, id, InstanceStatus.ACTIVE, "c5.large", "us-east-1a",
                T0.plusMillis(id.hashCode() & 0xffff));
    }

    private GameServerInstance saved(GameServerInstance i) {
        instances.save(i);
        return i;
    }

    private List<String> listAll(int limit) {
        List<String> ids = new ArrayList<>();
        Optional<String> cursor = Optional.empty();
        int pages = 0;
        do {
            Page<GameServerInstance> page = instances.list(group, limit, cursor);
            assertThat(page.items().size()).isLessThanOrEqualTo(limit);
            page.items().forEach(i -> ids.add(i.instanceId()));
            cursor = page.cursor();
            assertThat(++pages).isLessThan(50);
        } while (cursor.isPresent());
        return ids;
    }

    @Test
    void saveThenFindAndSaveAgainReplaces() {
        GameServerInstance i = saved(instance(group, "i-1"));
        assertThat(instances.find(group, "i-1")).contains(i);
        assertThat(instances.find(group + "-other", "i-1")).isEmpty();
        assertThat(instances.find(group, "i-2")).isEmpty();

        GameServerInstance changed = new GameServerInstance(group, "i-1", InstanceStatus.SPOT_TERMINATING, "c5a.large",
                "us-east-1b", T0);
        instances.save(changed);
        assertThat(instances.find(group, "i-1")).contains(changed);
        assertThat(instances.find(group, "i-1").orElseThrow().withStatus(InstanceStatus.DRAINING).instanceStatus())
                .isEqualTo(InstanceStatus.DRAINING);
    }

    @Test
    void findAllLeavesOutUnknownIdsAndOtherGroups() {
        GameServerInstance one = saved(instance(group, "i-1"));
        saved(instance(group, "i-2"));
        GameServerInstance three = saved(instance(group, "i-3"));
        saved(instance(group + "-other", "i-4"));

        assertThat(instances.findAll(group, List.of("i-3", "i-unknown", "i-1", "i-4", "i-1")))
                .containsExactly(one, three);
        assertThat(instances.findAll(group, List.of("i-unknown"))).isEmpty();
    }

    @Test
    void findAllTakesTwentyIds() {
        List<String> ids = new ArrayList<>();
        for (int n = 0; n < 20; n++) {
            ids.add(String.format("i-%02d", n));
            saved(instance(group, ids.get(n)));
        }
        assertThat(instances.findAll(group, ids)).extracting(GameServerInstance::instanceId).containsExactlyElementsOf(ids);
    }

    @Test
    void listPagesThroughTheGroupsInstancesInIdOrder() {
        for (String id : List.of("i-c", "i-a", "i-e", "i-b", "i-d")) {
            saved(instance(group, id));
        }
        saved(instance(group + "-other", "i-0"));

        assertThat(listAll(2)).containsExactly("i-a", "i-b", "i-c", "i-d", "i-e");
        assertThat(listAll(5)).containsExactly("i-a", "i-b", "i-c", "i-d", "i-e");
        assertThat(listAll(100)).containsExactly("i-a", "i-b", "i-c", "i-d", "i-e");

        Page<GameServerInstance> first = instances.list(group, 2, Optional.empty());
        assertThat(first.cursor()).isPresent();
        assertThat(instances.list(group, 2, first.cursor()).items()).extracting(GameServerInstance::instanceId)
                .containsExactly("i-c", "i-d");
    }

    @Test
    void deleteSomeDeletesInBatchesAndOnlyThisGroup() {
        for (int n = 0; n < 5; n++) {
            saved(instance(group, "i-" + n));
        }
        GameServerInstance other = saved(instance(group + "-other", "i-0"));

        assertThat(instances.deleteSome(group, 2)).isEqualTo(2);
        assertThat(listAll(10)).containsExactly("i-2", "i-3", "i-4");
        assertThat(instances.deleteSome(group, 2)).isEqualTo(2);
        assertThat(instances.deleteSome(group, 2)).isEqualTo(1);
        assertThat(instances.deleteSome(group, 2)).isZero();

        assertThat(listAll(10)).isEmpty();
        assertThat(instances.find(other.gameServerGroupName(), "i-0")).contains(other);
    }
}
