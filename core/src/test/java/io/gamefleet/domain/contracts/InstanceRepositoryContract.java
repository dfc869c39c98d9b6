package io.gamefleet.domain.contracts;

import static io.gamefleet.domain.contracts.ContractSupport.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.InstanceRepository;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.Page;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What every {@link InstanceRepository} does, seen through the port. Each test uses groups and ids of its own. */
public abstract class InstanceRepositoryContract {
    /** The repository under test. */
    protected abstract InstanceRepository newRepository();

    private InstanceRepository instances;
    private String group;

    @BeforeEach
    void repository() {
        instances = newRepository();
        group = ContractSupport.unique("instances");
    }

    private String other() {
        return group + "-other";
    }

    /** An instance id of this test alone. */
    private String id(String name) {
        return "i-" + group + "-" + name;
    }

    private GameServerInstance instance(String group, String id) {
        return new GameServerInstance(group, id, InstanceStatus.ACTIVE, "c5.large", "us-east-1a",
                T0.plusSeconds(id.hashCode() & 0xff));
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
            assertThat(page.items()).hasSizeLessThanOrEqualTo(limit);
            page.items().forEach(i -> ids.add(i.instanceId()));
            cursor = page.cursor();
            assertThat(++pages).as("paging ends").isLessThan(50);
        } while (cursor.isPresent());
        return ids;
    }

    @Test
    void saveThenFindAndSaveAgainReplaces() {
        GameServerInstance i = saved(instance(group, id("1")));
        assertThat(instances.find(group, id("1"))).contains(i);
        assertThat(instances.find(other(), id("1"))).isEmpty();
        assertThat(instances.find(group, id("2"))).isEmpty();

        GameServerInstance changed = new GameServerInstance(group, id("1"), InstanceStatus.DRAINING, "c5a.large",
                "us-east-1b", T0, true);
        instances.save(changed);
        assertThat(instances.find(group, id("1"))).contains(changed);
        assertThat(instances.find(group, id("1")).orElseThrow().withStatus(InstanceStatus.ACTIVE).instanceStatus())
                .isEqualTo(InstanceStatus.ACTIVE);
    }

    /** What EC2 gave when the instance was first seen, kept by every change of the record. */
    @Test
    void theAddressesAreKeptThroughEveryChange() {
        List<String> addresses = List.of("10.0.0.5", "54.1.2.3", "2600:1f18:0:1::5", "ip-10-0-0-5.ec2.internal",
                "ec2-54-1-2-3.compute-1.amazonaws.com");
        instances.addIfAbsent(new GameServerInstance(group, id("1"), InstanceStatus.ACTIVE, "c5.large", "us-east-1a",
                T0, false, null, null, addresses));
        assertThat(instances.find(group, id("1")).orElseThrow().addresses()).isEqualTo(addresses);

        instances.changeStatus(group, id("1"), InstanceStatus.ACTIVE, InstanceStatus.DRAINING, true);
        instances.setReplacementRequested(group, id("1"), false);
        instances.recordPushConnection(group, id("1"), "conn-1", T0, OptionalInt.empty());
        instances.clearPushConnection(group, id("1"), "conn-1");
        assertThat(instances.find(group, id("1")).orElseThrow().addresses()).isEqualTo(addresses);
        assertThat(instances.findById(id("1")).orElseThrow().addresses()).isEqualTo(addresses);
        assertThat(instances.listAll(group)).singleElement().extracting(GameServerInstance::addresses).isEqualTo(addresses);
        // A record made before addresses were recorded has none.
        instances.save(instance(group, id("2")));
        assertThat(instances.find(group, id("2")).orElseThrow().addresses()).isEmpty();
    }

    @Test
    void theLaunchTimeIsKeptToTheMillisecond() {
        instances.save(new GameServerInstance(group, id("1"), InstanceStatus.ACTIVE, "c5.large", "us-east-1a",
                T0.plusNanos(1_999_999)));
        assertThat(instances.find(group, id("1")).orElseThrow().launchTime()).isEqualTo(T0.plusMillis(1));
    }

    @Test
    void findAllReturnsTheGroupsRecordsInIdOrder() {
        GameServerInstance one = saved(instance(group, id("1")));
        saved(instance(group, id("2")));
        GameServerInstance three = saved(instance(group, id("3")));
        saved(instance(other(), id("4")));

        assertThat(instances.findAll(group, List.of(id("3"), id("unknown"), id("1"), id("4"), id("1"))))
                .containsExactly(one, three);
        assertThat(instances.findAll(group, List.of(id("unknown")))).isEmpty();
    }

    @Test
    void findAllTakesTwentyIds() {
        List<String> ascending = new ArrayList<>();
        for (int n = 0; n < 20; n++) {
            ascending.add(id(String.format("%02d", n)));
        }
        List<String> descending = new ArrayList<>(ascending);
        java.util.Collections.reverse(descending);
        descending.forEach(id -> saved(instance(group, id)));
        assertThat(instances.findAll(group, descending))
                .extracting(GameServerInstance::instanceId).containsExactlyElementsOf(ascending);
    }

    /** Refused as DynamoDB refuses them (the API lets neither through). */
    @Test
    void noIdsAndALimitBelowOneAreRefused() {
        saved(instance(group, id("1")));
        assertThatThrownBy(() -> instances.findAll(group, List.of())).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> instances.list(group, 0, Optional.empty())).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> instances.deleteSome(group, 0)).isInstanceOf(RuntimeException.class);
        assertThat(instances.listAll(group)).hasSize(1);
    }

    @Test
    void listPagesThroughTheGroupInIdOrder() {
        for (String name : List.of("c", "a", "e", "b", "d")) {
            saved(instance(group, id(name)));
        }
        saved(instance(other(), id("0")));
        List<String> all = List.of(id("a"), id("b"), id("c"), id("d"), id("e"));

        assertThat(listAll(2)).containsExactlyElementsOf(all);
        assertThat(listAll(5)).as("pages as large as the group").containsExactlyElementsOf(all);
        assertThat(listAll(100)).containsExactlyElementsOf(all);
        assertThat(instances.listAll(group)).extracting(GameServerInstance::instanceId).containsExactlyElementsOf(all);

        Page<GameServerInstance> first = instances.list(group, 2, Optional.empty());
        Page<GameServerInstance> second = instances.list(group, 2, first.cursor());
        assertThat(second.items()).extracting(GameServerInstance::instanceId).containsExactly(id("c"), id("d"));
        Page<GameServerInstance> third = instances.list(group, 2, second.cursor());
        assertThat(third.items()).extracting(GameServerInstance::instanceId).containsExactly(id("e"));
        assertThat(third.cursor()).isEmpty();

        Page<GameServerInstance> full = instances.list(group, 5, Optional.empty());
        assertThat(full.cursor()).as("a full page carries a cursor").isPresent();
        assertThat(instances.list(group, 5, full.cursor())).isEqualTo(new Page<>(List.of(), Optional.empty()));
    }

    @Test
    void anEmptyGroupListsNothing() {
        assertThat(instances.list(group, 10, Optional.empty())).isEqualTo(new Page<>(List.of(), Optional.empty()));
        assertThat(instances.listAll(group)).isEmpty();
    }

    @Test
    void findByIdFindsTheInstanceInWhicheverGroupHasIt() {
        GameServerInstance i = saved(instance(other(), id("1")));
        assertThat(instances.findById(id("1"))).contains(i);
        assertThat(instances.findById(id("404"))).isEmpty();

        GameServerInstance first = saved(instance(group, id("1"))); // its group's name sorts before other()'s
        assertThat(instances.findById(id("1"))).contains(first);
    }

    @Test
    void addIfAbsentKeepsARecordThatExists() {
        GameServerInstance draining = saved(instance(group, id("1")).withStatus(InstanceStatus.DRAINING));
        instances.addIfAbsent(instance(group, id("1")));
        assertThat(instances.find(group, id("1"))).contains(draining);

        GameServerInstance added = instance(group, id("2"));
        instances.addIfAbsent(added);
        assertThat(instances.find(group, id("2"))).contains(added);
        GameServerInstance sameIdElsewhere = instance(other(), id("1"));
        instances.addIfAbsent(sameIdElsewhere);
        assertThat(instances.find(other(), id("1"))).contains(sameIdElsewhere);
    }

    @Test
    void changeStatusMovesOnlyFromTheExpectedStatus() {
        GameServerInstance i = saved(instance(group, id("1")));

        assertThat(instances.changeStatus(group, id("1"), InstanceStatus.DRAINING, InstanceStatus.ACTIVE, false)).isFalse();
        assertThat(instances.find(group, id("1"))).contains(i);

        assertThat(instances.changeStatus(group, id("1"), InstanceStatus.ACTIVE, InstanceStatus.DRAINING, true)).isTrue();
        GameServerInstance draining = new GameServerInstance(group, id("1"), InstanceStatus.DRAINING, i.instanceType(),
                i.availabilityZone(), i.launchTime(), true);
        assertThat(instances.find(group, id("1"))).contains(draining);

        assertThat(instances.changeStatus(group, id("1"), InstanceStatus.ACTIVE, InstanceStatus.DRAINING, false))
                .as("a Spot interruption or another balancer came first").isFalse();
        assertThat(instances.changeStatus(group, id("1"), InstanceStatus.DRAINING, InstanceStatus.SPOT_TERMINATING, false))
                .isTrue();
        assertThat(instances.find(group, id("1")).orElseThrow().replacementRequested()).isFalse();
    }

    @Test
    void setReplacementRequestedChangesItOnceAndNothingElse() {
        GameServerInstance i = saved(instance(group, id("1")).withStatus(InstanceStatus.SPOT_TERMINATING));

        assertThat(instances.setReplacementRequested(group, id("1"), false)).as("false already").isFalse();
        assertThat(instances.setReplacementRequested(group, id("1"), true)).isTrue();
        assertThat(instances.setReplacementRequested(group, id("1"), true)).as("another caller came first").isFalse();
        assertThat(instances.find(group, id("1"))).contains(new GameServerInstance(group, id("1"),
                InstanceStatus.SPOT_TERMINATING, i.instanceType(), i.availabilityZone(), i.launchTime(), true));

        assertThat(instances.setReplacementRequested(group, id("1"), false)).isTrue();
        assertThat(instances.setReplacementRequested(group, id("1"), false)).isFalse();
        assertThat(instances.find(group, id("1"))).contains(i);

        assertThat(instances.setReplacementRequested(group, id("404"), true)).as("no record").isFalse();
        assertThat(instances.find(group, id("404"))).isEmpty();
    }

    @Test
    void changeStatusOfAnUnknownInstanceCreatesNothing() {
        assertThat(instances.changeStatus(group, id("404"), InstanceStatus.ACTIVE, InstanceStatus.DRAINING, false)).isFalse();
        assertThat(instances.find(group, id("404"))).isEmpty();
    }

    // ---- the push connection ----------------------------------------------------------

    @Test
    void aPushConnectionIsRecordedOnlyOnARecordedInstanceAndANewerOneReplacesIt() {
        GameServerInstance i = saved(instance(group, id("1")));
        assertThat(instances.recordPushConnection(group, id("ghost"), "conn-ghost", T0, OptionalInt.empty())).isFalse();
        assertThat(instances.find(group, id("ghost"))).as("nothing created").isEmpty();
        assertThat(instances.recordPushConnection(other(), id("1"), "conn-other", T0, OptionalInt.empty())).isFalse();

        assertThat(instances.recordPushConnection(group, id("1"), "conn-1", T0, OptionalInt.empty())).isTrue();
        assertThat(instances.find(group, id("1")).orElseThrow().pushConnectionId()).isEqualTo("conn-1");
        assertThat(instances.recordPushConnection(group, id("1"), "conn-2", T0, OptionalInt.empty())).isTrue();
        GameServerInstance connected = instances.find(group, id("1")).orElseThrow();
        assertThat(connected.pushConnectionId()).isEqualTo("conn-2");
        assertThat(connected.instanceStatus()).as("nothing else changed").isEqualTo(i.instanceStatus());
        assertThat(connected.launchTime()).isEqualTo(i.launchTime());
    }

    @Test
    void aPushConnectionIsClearedOnlyIfItIsStillThatOne() {
        saved(instance(group, id("1")));
        instances.recordPushConnection(group, id("1"), "conn-old", T0, OptionalInt.empty());
        instances.recordPushConnection(group, id("1"), "conn-new", T0, OptionalInt.empty());
        assertThat(instances.clearPushConnection(group, id("1"), "conn-old")).isFalse();
        assertThat(instances.find(group, id("1")).orElseThrow().pushConnectionId()).isEqualTo("conn-new");

        assertThat(instances.clearPushConnection(group, id("1"), "conn-new")).isTrue();
        assertThat(instances.find(group, id("1")).orElseThrow().pushConnectionId()).isNull();
        assertThat(instances.find(group, id("1")).orElseThrow().pushConnectedAt()).as("cleared with it").isNull();
        assertThat(instances.clearPushConnection(group, id("1"), "conn-new")).isFalse();
        assertThat(instances.clearPushConnection(group, id("ghost"), "conn-new")).isFalse();
        assertThat(instances.find(group, id("ghost"))).isEmpty();
    }

    /** The beacon's port is the connection's: written with each connect (a newer one without a port has none), cleared with it. */
    @Test
    void theQosPortIsRecordedAndClearedWithThePushConnection() {
        saved(instance(group, id("1")));
        instances.recordPushConnection(group, id("1"), "conn-1", T0, OptionalInt.of(3075));
        assertThat(instances.find(group, id("1")).orElseThrow().qosPort()).isEqualTo(3075);
        assertThat(instances.listAll(group)).singleElement().extracting(GameServerInstance::qosPort)
                .as("listed with it, as the QoS listing reads it").isEqualTo(3075);
        instances.changeStatus(group, id("1"), InstanceStatus.ACTIVE, InstanceStatus.DRAINING, true);
        assertThat(instances.find(group, id("1")).orElseThrow().qosPort()).as("kept by other writes").isEqualTo(3075);

        instances.recordPushConnection(group, id("1"), "conn-2", T0, OptionalInt.empty());
        assertThat(instances.find(group, id("1")).orElseThrow().qosPort()).as("the newer connect has none").isNull();
        instances.recordPushConnection(group, id("1"), "conn-3", T0, OptionalInt.of(65535));
        assertThat(instances.clearPushConnection(group, id("1"), "conn-3")).isTrue();
        assertThat(instances.find(group, id("1")).orElseThrow().qosPort()).as("cleared with the connection").isNull();
    }

    @Test
    void theStatusAndReplacementChangesKeepThePushConnection() {
        saved(instance(group, id("1")));
        instances.recordPushConnection(group, id("1"), "conn-1", T0, OptionalInt.empty());
        instances.changeStatus(group, id("1"), InstanceStatus.ACTIVE, InstanceStatus.DRAINING, true);
        instances.setReplacementRequested(group, id("1"), false);
        instances.addIfAbsent(instance(group, id("1")));
        assertThat(instances.find(group, id("1")).orElseThrow().pushConnectionId()).isEqualTo("conn-1");
        assertThat(instances.find(group, id("1")).orElseThrow().pushConnectedAt()).isEqualTo(T0);
    }

    @Test
    void aPushConnectionIsRecordedWithItsTimeToTheMillisecondAndANewerOneReplacesBoth() {
        saved(instance(group, id("1")));
        instances.recordPushConnection(group, id("1"), "conn-1", T0.plusNanos(1_999_999), OptionalInt.empty());
        assertThat(instances.find(group, id("1")).orElseThrow().pushConnectedAt()).isEqualTo(T0.plusMillis(1));
        instances.recordPushConnection(group, id("1"), "conn-2", T0.plusSeconds(60), OptionalInt.empty());
        GameServerInstance connected = instances.find(group, id("1")).orElseThrow();
        assertThat(connected.pushConnectionId()).isEqualTo("conn-2");
        assertThat(connected.pushConnectedAt()).isEqualTo(T0.plusSeconds(60));
        assertThat(instances.listAll(group)).singleElement().extracting(GameServerInstance::pushConnectedAt)
                .as("listed with it, as the balancer reads it").isEqualTo(T0.plusSeconds(60));
    }

    @Test
    void findByPushConnectionFindsTheInstanceHoldingIt() {
        saved(instance(group, id("1")));
        saved(instance(other(), id("2")));
        instances.recordPushConnection(other(), id("2"), "conn-" + group, T0, OptionalInt.empty());
        GameServerInstance found = instances.findByPushConnection("conn-" + group).orElseThrow();
        assertThat(found.gameServerGroupName()).isEqualTo(other());
        assertThat(found.instanceId()).isEqualTo(id("2"));
        assertThat(instances.findByPushConnection("conn-none-" + group)).isEmpty();
    }

    @Test
    void deleteRemovesOnlyThatRecord() {
        GameServerInstance kept = saved(instance(group, id("1")));
        GameServerInstance elsewhere = saved(instance(other(), id("2")));
        saved(instance(group, id("2")));
        instances.delete(group, id("2"));
        instances.delete(group, id("404"));
        assertThat(instances.listAll(group)).containsExactly(kept);
        assertThat(instances.findById(id("2"))).contains(elsewhere);
    }

    @Test
    void deleteSomeDeletesInIdOrderAndOnlyThisGroup() {
        for (int n = 0; n < 5; n++) {
            saved(instance(group, id(Integer.toString(n))));
        }
        GameServerInstance theirs = saved(instance(other(), id("0")));

        assertThat(instances.deleteSome(group, 2)).containsExactly(id("0"), id("1"));
        assertThat(listAll(10)).containsExactly(id("2"), id("3"), id("4"));
        assertThat(instances.deleteSome(group, 2)).containsExactly(id("2"), id("3"));
        assertThat(instances.deleteSome(group, 2)).containsExactly(id("4"));
        assertThat(instances.deleteSome(group, 2)).isEmpty();

        assertThat(listAll(10)).isEmpty();
        assertThat(instances.find(other(), id("0"))).contains(theirs);
    }
}
