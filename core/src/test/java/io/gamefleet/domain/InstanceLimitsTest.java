package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.domain.GameServerService.Registration;
import io.gamefleet.domain.fakes.FakeCompute;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What one instance can do to its group, even with its own credentials ({@link InstanceLimits}):
 * at most {@link Fleet#LIMITS}' 16 game servers, whoever registers them; a ConnectionInfo naming
 * one of its own addresses; registrations within its fair share. Each refusal leaves nothing stored.
 */
class InstanceLimitsTest {
    private static final String MINE = "i-0aaaaaaaaaaaaaaaa";
    private static final String OTHER = "i-0bbbbbbbbbbbbbbbb";
    private static final int CAP = Fleet.LIMITS.maxGameServers();

    private final Fleet fleet = new Fleet();
    /** Every call of the service on its repositories, by method name. */
    private final List<String> calls = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** One service throughout, as one container: its fair shares are remembered in it. */
    private final GameServerService service = fleet.gameServers(
            Fleet.around(GameServerRepository.class, fleet.servers, this::counted),
            Fleet.around(InstanceRepository.class, fleet.instances, this::counted));
    private final Caller mine = Caller.onInstance(MINE);

    @BeforeEach
    void anActiveGroupWithTwoInstances() {
        fleet.activeGroup();
        fleet.launch(MINE, C5);
        fleet.launch(OTHER, C5);
    }

    private Object counted(String method, Object[] args, java.util.concurrent.Callable<Object> proceed) throws Exception {
        calls.add(method);
        return proceed.call();
    }

    private GameServer register(String id, String instanceId, String connectionInfo, Caller caller) {
        return service.register(new Registration(GROUP, id, instanceId, Optional.ofNullable(connectionInfo),
                Optional.empty()), caller);
    }

    private GamefleetException refused(String id, String instanceId, String connectionInfo, Caller caller) {
        return catchThrowableOfType(() -> register(id, instanceId, connectionInfo, caller), GamefleetException.class);
    }

    private List<String> idsOn(String instanceId) {
        return fleet.servers.onInstance(instanceId).stream().map(GameServer::gameServerId).toList();
    }

    @Test
    void theServerPastTheCapIsRefusedWhoeverRegistersItAndNothingIsStored() {
        for (int n = 0; n < CAP; n++) {
            register("gs-" + n, MINE, "10.0.0.1:" + (7000 + n), n % 2 == 0 ? mine : Caller.ADMINISTRATOR);
        }
        List<String> before = idsOn(MINE);

        GamefleetException e = refused("gs-more", MINE, "10.0.0.1:7999", mine);
        assertThat(e.kind()).isEqualTo(ErrorKind.LIMIT_EXCEEDED);
        assertThat(e.errorType()).isEqualTo("LimitExceededException");
        assertThat(e.getMessage()).isEqualTo("instance " + MINE + " has 16 game servers registered, the most one"
                + " instance may have; deregister one first");
        assertThat(refused("gs-more", MINE, "10.0.0.1:7999", Caller.ADMINISTRATOR).kind())
                .as("an administrator too").isEqualTo(ErrorKind.LIMIT_EXCEEDED);
        assertThat(idsOn(MINE)).isEqualTo(before);
        assertThat(fleet.servers.find("gs-more")).isEmpty();
        // The other instance is not held by this one's count.
        register("gs-other", OTHER, "10.0.0.1:7000", Caller.onInstance(OTHER));
    }

    @Test
    void aDeregistrationGivesTheSlotBack() {
        for (int n = 0; n < CAP; n++) {
            register("gs-" + n, MINE, "10.0.0.1:7777", Caller.ADMINISTRATOR);
        }
        service.deregister(GROUP, "gs-3", mine);
        register("gs-next", MINE, "10.0.0.1:7777", mine);
        assertThat(refused("gs-again", MINE, "10.0.0.1:7777", mine).kind()).isEqualTo(ErrorKind.LIMIT_EXCEEDED);
    }

    /** The health sweep, the instance's end and the group's purge give the slots back as well. */
    @Test
    void everyOtherWayAServerGoesGivesItsSlotBack() {
        for (int n = 0; n < CAP; n++) {
            register("gs-" + n, MINE, "10.0.0.1:7777", Caller.ADMINISTRATOR);
        }
        // The balancer sweeps a silent server.
        fleet.clock.advance(Fleet.HEALTH_TIMEOUT.plusSeconds(1));
        for (int n = 1; n < CAP; n++) {
            fleet.heartbeat("gs-" + n);
        }
        fleet.balancer().runAll();
        assertThat(fleet.servers.find("gs-0")).isEmpty();
        register("gs-after-sweep", MINE, "10.0.0.1:7777", mine);
        assertThat(refused("gs-no", MINE, "10.0.0.1:7777", mine).kind()).isEqualTo(ErrorKind.LIMIT_EXCEEDED);
    }

    @Test
    void aConnectionInfoMustNameOneOfTheInstancesOwnAddressesWithAPort() {
        fleet.compute.setAddresses("i-0ccccccccccccccc1", List.of("10.0.3.7", "54.20.1.9", "2600:1f18:abc:1::7",
                "ip-10-0-3-7.ec2.internal", "ec2-54-20-1-9.compute-1.amazonaws.com"));
        fleet.replacement(GROUP, "i-0ccccccccccccccc1", C5, true);
        String dual = "i-0ccccccccccccccc1";
        Caller own = Caller.onInstance(dual);
        // Recorded at its first registration, with EC2's addresses for it.
        register("gs-private", dual, "10.0.3.7:7777", own);
        assertThat(fleet.instances.find(GROUP, dual).orElseThrow().addresses()).contains("10.0.3.7", "2600:1f18:abc:1::7");
        register("gs-public", dual, "54.20.1.9:1", own);
        register("gs-dns", dual, "EC2-54-20-1-9.compute-1.amazonaws.com:65535", own);
        register("gs-v6", dual, "[2600:1F18:ABC:1:0:0:0:7]:7777", own);
        register("gs-none", dual, null, own); // no ConnectionInfo names no host

        for (String foreign : List.of("203.0.113.9:7777", "10.0.3.7", "10.0.3.7:0", "10.0.3.7:65536", "10.0.3.7:http",
                "2600:1f18:abc:1::7:7777", "[2600:1f18:abc:1::8]:7777", "evil.example.com:7777", "10.0.3.7:7777/x",
                "ip-10-0-3-7.ec2.internal.evil.example.com:7777")) {
            GamefleetException e = refused("gs-foreign", dual, foreign, own);
            assertThat(e.kind()).as(foreign).isEqualTo(ErrorKind.INVALID_REQUEST);
            assertThat(e.getMessage()).startsWith("ConnectionInfo " + foreign + " names no address of instance " + dual
                    + ": it must be one of 10.0.3.7, 54.20.1.9, 2600:1f18:abc:1::7, ip-10-0-3-7.ec2.internal,"
                    + " ec2-54-20-1-9.compute-1.amazonaws.com and a port").contains("connectionInfoCheck is on");
        }
        assertThat(fleet.servers.find("gs-foreign")).isEmpty();
        assertThat(refused("gs-admin", dual, "203.0.113.9:7777", Caller.ADMINISTRATOR).kind())
                .as("an administrator's registration too").isEqualTo(ErrorKind.INVALID_REQUEST);
    }

    @Test
    void withTheCheckOffAnyConnectionInfoIsTaken() {
        InstanceLimits off = new InstanceLimits(CAP, false, Fleet.LIMITS.registrations(), Fleet.LIMITS.pushMessages());
        ServiceSettings s = Fleet.SETTINGS;
        GameServerService relays = new GameServerService(fleet.groups, fleet.servers, fleet.instances, () -> fleet.compute,
                new ClaimPolicy(1, new java.util.SplittableRandom(1)), fleet.tokens, new ServiceSettings(s.region(),
                        s.accountId(), s.claimTtl(), s.healthTimeout(), s.deletedRetention(), s.activationTimeout(),
                        s.scalingGroupPrefix(), off, s.lifetime()), fleet.clock);
        relays.register(new Registration(GROUP, "gs-relay", MINE, Optional.of("relay.example.com:443"), Optional.empty()),
                mine);
        assertThat(fleet.servers.find("gs-relay").orElseThrow().connectionInfo()).isEqualTo("relay.example.com:443");
    }

    @Test
    void anInstanceRecordedBeforeAddressesWereIsNotHeldToThem() {
        fleet.instances.save(new GameServerInstance(GROUP, "i-0ddddddddddddddd1", InstanceStatus.ACTIVE, C5, "us-east-1a",
                Fleet.T0));
        register("gs-old", "i-0ddddddddddddddd1", "198.51.100.4:7777", Caller.ADMINISTRATOR);
    }

    @Test
    void anInstanceEc2DoesNotDescribeYetIsNotRecordedWithoutItsAddresses() {
        fleet.compute.setAddresses("i-0eeeeeeeeeeeeeee1", List.of());
        fleet.replacement(GROUP, "i-0eeeeeeeeeeeeeee1", C5, true);
        GamefleetException e = refused("gs-early", "i-0eeeeeeeeeeeeeee1", "10.0.0.1:7777",
                Caller.onInstance("i-0eeeeeeeeeeeeeee1"));
        assertThat(e.kind()).isEqualTo(ErrorKind.INTERNAL);
        assertThat(e.getMessage()).contains("is not described by EC2 yet; it is safe to retry");
        assertThat(fleet.instances.find(GROUP, "i-0eeeeeeeeeeeeeee1")).isEmpty();
        // Described a moment later: the next registration asks again and records it.
        fleet.compute.setAddresses("i-0eeeeeeeeeeeeeee1", List.of("10.0.9.9"));
        register("gs-early", "i-0eeeeeeeeeeeeeee1", "10.0.9.9:7777", Caller.onInstance("i-0eeeeeeeeeeeeeee1"));
        assertThat(fleet.instances.find(GROUP, "i-0eeeeeeeeeeeeeee1").orElseThrow().addresses()).containsExactly("10.0.9.9");
    }

    /**
     * An instance's own session registers 16 at once, then one every 5 s (Fleet's share): past
     * that, it alone is refused, before anything is read; the other instance and an administrator
     * go on.
     */
    @Test
    void registrationsPastAnInstancesFairShareAreRefusedForItAlone() {
        int burst = Fleet.LIMITS.registrations().burst();
        for (int n = 0; n < burst; n++) {
            register("gs-" + n, MINE, "10.0.0.1:7777", mine);
            service.deregister(GROUP, "gs-" + n, mine); // register and deregister, again and again
        }
        List<FakeCompute.Call> computeBefore = fleet.compute.calls();
        calls.clear();
        GamefleetException e = refused("gs-flood", MINE, "10.0.0.1:7777", mine);
        assertThat(e.kind()).isEqualTo(ErrorKind.THROTTLED);
        assertThat(e.errorType()).isEqualTo("ThrottlingException");
        assertThat(e.getMessage()).isEqualTo("instance " + MINE + " sent more registrations than its fair share of"
                + " the stage's throttle (16 at once, then 12.0 a minute); retry with backoff");
        assertThat(calls).as("refused before any read").isEmpty();
        assertThat(fleet.compute.calls()).isEqualTo(computeBefore);
        assertThat(fleet.servers.find("gs-flood")).isEmpty();

        register("gs-other", OTHER, "10.0.0.1:7777", Caller.onInstance(OTHER));
        register("gs-admin", MINE, "10.0.0.1:7777", Caller.ADMINISTRATOR);
        // The share fills again as time passes: one more in 5 s.
        fleet.clock.advance(Duration.ofSeconds(5));
        register("gs-later", MINE, "10.0.0.1:7777", mine);
        assertThat(refused("gs-later-2", MINE, "10.0.0.1:7777", mine).kind()).isEqualTo(ErrorKind.THROTTLED);
    }

    /** The balancer records a new instance with its addresses; while EC2 cannot be asked, at a later run. */
    @Test
    void theBalancerRecordsANewInstanceWithItsAddresses() {
        fleet.compute.setAddresses("i-0fffffffffffffff1", List.of("10.0.4.4", "ip-10-0-4-4.ec2.internal"));
        fleet.replacement(GROUP, "i-0fffffffffffffff1", C5, true);
        fleet.compute.failNext(FakeCompute.LAUNCHED, true);
        fleet.balancer().runAll();
        assertThat(fleet.instances.find(GROUP, "i-0fffffffffffffff1")).isEmpty();
        assertThat(fleet.log).anyMatch(line -> line.startsWith("balancer: the new instances of group arena are recorded"
                + " at a later run"));

        fleet.balancer().runAll();
        assertThat(fleet.instances.find(GROUP, "i-0fffffffffffffff1").orElseThrow().addresses())
                .containsExactly("10.0.4.4", "ip-10-0-4-4.ec2.internal");
        assertThat(fleet.compute.calls(FakeCompute.LAUNCHED)).as("asked for the new instance only")
                .containsExactly(List.of(List.of("i-0fffffffffffffff1")), List.of(List.of("i-0fffffffffffffff1")));
    }

    @Test
    void theActivationRecordsItsInstancesWithTheirAddresses() {
        GameServerGroup activating = fleet.groupService().create(Fleet.draft("fresh").build());
        GroupLifecycle steps = fleet.lifecycle();
        steps.startActivation("fresh");
        steps.createScalingGroup("fresh");
        fleet.compute.addInstance(Fleet.SETTINGS.autoScalingGroupName("fresh"),
                new Compute.ComputeInstance("i-0aaaaaaaaaaaaaaa9", C5, "us-east-1a", true, false), Fleet.T0);
        fleet.compute.setAddresses("i-0aaaaaaaaaaaaaaa9", List.of("10.0.7.7"));
        assertThat(steps.checkActivation(activating.name())).isTrue();
        assertThat(steps.checkActivation(activating.name())).isTrue();
        assertThat(fleet.instances.find("fresh", "i-0aaaaaaaaaaaaaaa9").orElseThrow().addresses()).containsExactly("10.0.7.7");
        assertThat(fleet.compute.calls(FakeCompute.LAUNCHED)).as("once: then it is recorded").hasSize(1);
    }
}
