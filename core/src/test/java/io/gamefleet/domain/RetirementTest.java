package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static io.gamefleet.domain.Fleet.M5;
import static io.gamefleet.domain.Fleet.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.GameServerService.Claim;
import io.gamefleet.domain.SpotBalancer.GroupReport;
import io.gamefleet.domain.fakes.FakeCompute;
import io.gamefleet.domain.fakes.InMemoryGameServerRepository;
import io.gamefleet.domain.fakes.MutableClock;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The balancer ends an idle DRAINING instance that holds more game servers than one transaction
 * retires (100): a claim that lands on one of the last ones while it runs keeps the instance, and
 * leaves none of its servers out of claims.
 */
class RetirementTest {
    private static final String SCALING_GROUP = Fleet.SETTINGS.autoScalingGroupName(GROUP);
    private static final String DRAINING = "i-0draining0000000";
    private static final int SERVERS = 150;

    /** Up to 150 servers on one instance (two transactions): a stage that raised maxGameServersPerInstance. */
    private final Fleet fleet = new Fleet().allowGameServersPerInstance(150);
    private final MutableClock clock = fleet.clock;
    private final InMemoryGameServerRepository servers = fleet.servers;
    private final FakeCompute compute = fleet.compute;
    private GameServerGroup group;

    @BeforeEach
    void aDrainingInstanceWithAHundredAndFiftyIdleServersWhoseReplacementIsInService() {
        group = fleet.activeGroup();
        fleet.launch(DRAINING, C5);
        fleet.launch("i-0active000000000", C5);
        fleet.drain(GROUP, DRAINING);
        fleet.replacement(GROUP, "i-0replacement0000", M5, true);
        for (int n = 0; n < SERVERS; n++) {
            fleet.register(id(n), DRAINING);
        }
    }

    private static String id(int n) {
        return String.format("s-%03d", n);
    }

    /** The repository, but a matchmaker claims this server while the balancer retires the instance's servers. */
    private GameServerRepository claimedDuringRetire(String gameServerId) {
        return Fleet.around(GameServerRepository.class, servers, (method, args, proceed) -> {
            if (method.equals("retire")) {
                fleet.gameServers().claim(new Claim(GROUP, Optional.of(gameServerId), Optional.empty(), Optional.empty()));
            }
            return proceed.call();
        });
    }

    @Test
    void aClaimDuringTheRetirementKeepsTheInstanceAndStrandsNoServer() {
        GroupReport report = fleet.balancer(claimedDuringRetire(id(140)), compute).run(group);

        assertThat(report.terminated()).isEmpty();
        assertThat(compute.calls(FakeCompute.TERMINATE_INSTANCE)).isEmpty();
        assertThat(fleet.log).anyMatch(line -> line.contains(DRAINING) && line.contains("stays for now"));
        assertThat(servers.listAll(GROUP)).hasSize(SERVERS)
                .allSatisfy(s -> assertThat(s.instanceStatus()).isEqualTo(InstanceStatus.DRAINING));
        assertThat(servers.claimCandidates(GROUP, InstanceStatus.DRAINING, clock.instant(), T0, 25).servers())
                .hasSize(25);

        // While the claim holds, the instance stays; once it lapsed unused, the instance ends.
        assertThat(fleet.balancer().run(group).terminated()).isEmpty();
        clock.advance(Fleet.CLAIM_TTL.plusSeconds(1));
        // Meanwhile the idle servers kept reporting health: a claim lasts as long as the health timeout.
        for (int n = 0; n < SERVERS; n++) {
            fleet.heartbeat(id(n));
        }
        GroupReport later = fleet.balancer().run(group);
        assertThat(later.swept()).as("ended with the instance, not swept as unhealthy").isZero();
        assertThat(later.terminated()).containsExactly(DRAINING);
        assertThat(compute.calls(FakeCompute.TERMINATE_INSTANCE)).containsExactly(List.of(SCALING_GROUP, DRAINING, true));
        assertThat(servers.onInstance(DRAINING)).isEmpty();
    }

    @Test
    void withoutAClaimTheInstanceEndsWithAllItsServers() {
        GroupReport report = fleet.balancer().run(group);
        assertThat(report.terminated()).containsExactly(DRAINING);
        assertThat(servers.listAll(GROUP)).isEmpty();
        assertThat(fleet.instances.find(GROUP, DRAINING)).isEmpty();
    }
}
