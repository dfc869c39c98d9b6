package io.gamefleet.domain.contracts;

import static io.gamefleet.domain.contracts.ContractSupport.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.domain.ErrorKind;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerRepository;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.GroupRepository;
import io.gamefleet.domain.InstanceStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The most game servers one instance may hold ({@link GameServerRepository#register}'s
 * {@code maxOnInstance}), through the port only: the next registration is refused
 * LimitExceededException with nothing stored, every way a server goes gives its slot back, and
 * the count stays exact when registrations and deregistrations of one instance race.
 */
public abstract class InstanceCapContract {
    private static final int GROUP_MAX_SIZE = 16;
    private static final int CAP = 3;

    protected abstract GameServerRepository newRepository();

    /** A group repository whose writes keep the gates that {@link #newRepository()} reads. */
    protected abstract GroupRepository newGroupRepository();

    private GameServerRepository servers;
    private GroupRepository groups;
    private GameServerGroup active;
    private String group;
    private int serial;

    @BeforeEach
    void anActiveGroup() {
        servers = newRepository();
        groups = newGroupRepository();
        group = ContractSupport.unique("cap");
        GameServerGroup g = GameServerGroup.builder().name(group).creationTime(T0).lastUpdatedTime(T0)
                .maxSize(GROUP_MAX_SIZE).build();
        groups.create(g);
        active = groups.update(g.toBuilder().status(GameServerGroupStatus.ACTIVE).build());
    }

    private String instance(String name) {
        return group + "-" + name;
    }

    private GameServer server(String instanceName) {
        return GameServer.builder().gameServerGroupName(group).gameServerId(group + "-s" + serial++)
                .instanceId(instance(instanceName)).connectionInfo("10.0.0.1:7777").registrationTime(T0)
                .lastHealthCheckTime(T0).instanceStatus(InstanceStatus.ACTIVE)
                .instanceLaunchTime(T0.minusSeconds(3600)).build();
    }

    private GameServer registered(String instanceName) {
        GameServer s = server(instanceName);
        servers.register(s, GROUP_MAX_SIZE, CAP);
        return s;
    }

    private Optional<GamefleetException> refusal(GameServer s) {
        return Optional.ofNullable(catchThrowableOfType(GamefleetException.class,
                () -> servers.register(s, GROUP_MAX_SIZE, CAP)));
    }

    /** Registers fresh servers on the instance until one is refused for the cap: how many went in. */
    private int roomOn(String instanceName) {
        for (int room = 0; room <= CAP; room++) {
            Optional<GamefleetException> refused = refusal(server(instanceName));
            if (refused.isPresent()) {
                assertThat(refused.get().kind()).isEqualTo(ErrorKind.LIMIT_EXCEEDED);
                return room;
            }
        }
        throw new AssertionError("instance " + instance(instanceName) + " took more than " + CAP + " servers");
    }

    @Test
    void theServerPastTheCapIsRefusedWithNothingStored() {
        List<GameServer> three = List.of(registered("a"), registered("a"), registered("a"));
        GameServer fourth = server("a");

        GamefleetException refused = refusal(fourth).orElseThrow();
        assertThat(refused.kind()).isEqualTo(ErrorKind.LIMIT_EXCEEDED);
        assertThat(refused).hasMessage("instance " + instance("a") + " has 3 game servers registered, the most one"
                + " instance may have; deregister one first");
        assertThat(servers.find(fourth.gameServerId())).isEmpty();
        assertThat(servers.onInstance(instance("a"))).extracting(GameServer::gameServerId)
                .containsExactlyInAnyOrderElementsOf(three.stream().map(GameServer::gameServerId).toList());
        assertThat(servers.listAll(group)).hasSize(3);
        // Another instance of the group has its own count.
        assertThat(roomOn("b")).isEqualTo(CAP);
    }

    @Test
    void aRegistrationRefusedForAnotherReasonTakesNoSlot() {
        GameServer first = registered("a");
        registered("a");
        assertThat(refusal(first).orElseThrow().kind()).as("its id is taken").isEqualTo(ErrorKind.CONFLICT);
        groups.update(active.toBuilder().status(GameServerGroupStatus.DELETE_SCHEDULED).build());
        assertThat(refusal(server("a")).orElseThrow().kind()).as("the group is no longer ACTIVE").isEqualTo(ErrorKind.CONFLICT);
        active = groups.update(groups.find(group).orElseThrow().toBuilder().status(GameServerGroupStatus.ACTIVE).build());
        assertThat(roomOn("a")).isEqualTo(1);
    }

    /** Deregistration, on its instance or not, a sweep, an instance's end and a group's purge: each gives the slot back. */
    @Test
    void everyWayAServerGoesGivesItsSlotBack() {
        GameServer deregistered = registered("a");
        GameServer onItsInstance = registered("a");
        GameServer swept = registered("a");
        assertThat(roomOn("a")).isZero();

        assertThat(servers.deregister(group, deregistered.gameServerId(), Optional.empty())).isPresent();
        assertThat(roomOn("a")).as("after DeregisterGameServer").isEqualTo(1);

        assertThat(servers.deregister(group, onItsInstance.gameServerId(), Optional.of(instance("a")))).isPresent();
        assertThat(roomOn("a")).as("after the instance's own DeregisterGameServer").isEqualTo(1);

        assertThat(servers.deleteIfUnhealthy(swept.gameServerId(), T0.plusSeconds(1))).isTrue();
        assertThat(roomOn("a")).as("after the health sweep").isEqualTo(1);

        for (GameServer s : servers.onInstance(instance("a"))) {
            servers.delete(s.gameServerId()); // the instance ended
        }
        servers.forgetInstance(instance("a"));
        assertThat(roomOn("a")).as("after the instance's end").isEqualTo(CAP);

        assertThat(servers.deleteSome(group, 100)).isEqualTo(CAP); // the group's purge
        assertThat(roomOn("a")).as("after the purge").isEqualTo(CAP);
    }

    @Test
    void aRefusedDeregistrationOrARefusedSweepKeepsTheSlot() {
        GameServer s = registered("a");
        registered("a");
        registered("a");
        assertThat(servers.deregister(group, s.gameServerId(), Optional.of(instance("b")))).as("not on b").isEmpty();
        assertThat(servers.deregister(group + "-other", s.gameServerId(), Optional.empty())).as("not in that group").isEmpty();
        assertThat(servers.deleteIfUnhealthy(s.gameServerId(), T0)).as("not silent before T0").isFalse();
        assertThat(servers.deregister(group, group + "-none", Optional.empty())).isEmpty();
        servers.delete(group + "-none");
        assertThat(roomOn("a")).isZero();
    }

    @Test
    void forgettingAnInstanceKeepsTheCountOfAServerRegisteredSince() {
        registered("a");
        servers.forgetInstance(instance("a")); // a registration came between the servers' deletion and this
        assertThat(roomOn("a")).isEqualTo(CAP - 1);
    }

    /**
     * Twelve registrations at once on an instance that holds three: three go in. Then eight
     * threads register and deregister on it at once, each keeping one server it holds until its
     * next registration went in (or was refused): eight want more than three, so some are
     * refused; the instance never holds more than three, and once all is deregistered it takes
     * exactly three again.
     */
    @Test
    void theCountStaysExactWhenRegistrationsAndDeregistrationsRace() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(12);
        try {
            CyclicBarrier start = new CyclicBarrier(12);
            List<Future<Boolean>> all = new ArrayList<>();
            for (int t = 0; t < 12; t++) {
                GameServer s = server("a");
                all.add(pool.submit(() -> {
                    start.await();
                    return refusal(s).isEmpty();
                }));
            }
            int admitted = 0;
            for (Future<Boolean> f : all) {
                admitted += f.get(60, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(admitted).isEqualTo(CAP);
            for (GameServer s : servers.onInstance(instance("a"))) {
                assertThat(servers.deregister(group, s.gameServerId(), Optional.empty())).isPresent();
            }

            AtomicInteger refusals = new AtomicInteger();
            ConcurrentLinkedQueue<String> overCap = new ConcurrentLinkedQueue<>();
            CyclicBarrier together = new CyclicBarrier(threads);
            List<Future<Optional<GameServer>>> racers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                List<GameServer> mine = new ArrayList<>();
                for (int n = 0; n < 15; n++) {
                    mine.add(server("a"));
                }
                racers.add(pool.submit(() -> {
                    together.await();
                    Optional<GameServer> held = Optional.empty();
                    for (GameServer s : mine) {
                        Optional<GamefleetException> refused = refusal(s);
                        if (refused.isPresent()) {
                            assertThat(refused.get().kind()).isEqualTo(ErrorKind.LIMIT_EXCEEDED);
                            refusals.incrementAndGet();
                        } else {
                            int onIt = servers.onInstance(instance("a")).size();
                            if (onIt > CAP) {
                                overCap.add(onIt + " after " + s.gameServerId());
                            }
                        }
                        if (held.isPresent()) {
                            assertThat(servers.deregister(group, held.get().gameServerId(), Optional.of(instance("a"))))
                                    .isPresent();
                        }
                        held = refused.isPresent() ? Optional.empty() : Optional.of(s);
                    }
                    return held;
                }));
            }
            List<GameServer> heldAtTheEnd = new ArrayList<>();
            for (Future<Optional<GameServer>> f : racers) {
                f.get(120, TimeUnit.SECONDS).ifPresent(heldAtTheEnd::add);
            }
            assertThat(overCap).isEmpty();
            assertThat(refusals.get()).as("the racers met the cap").isPositive();
            assertThat(servers.onInstance(instance("a"))).extracting(GameServer::gameServerId)
                    .containsExactlyInAnyOrderElementsOf(heldAtTheEnd.stream().map(GameServer::gameServerId).toList());
            for (GameServer s : heldAtTheEnd) {
                assertThat(servers.deregister(group, s.gameServerId(), Optional.empty())).isPresent();
            }
            assertThat(roomOn("a")).as("no slot lost or left over").isEqualTo(CAP);
        } finally {
            pool.shutdownNow();
        }
    }
}
