package io.gamefleet.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.Compute.ScalingGroupState;
import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import io.gamefleet.domain.SpotBalancer.GroupReport;
import io.gamefleet.domain.fakes.FakeCompute;
import io.gamefleet.domain.fakes.InMemoryGameServerRepository;
import io.gamefleet.domain.fakes.InMemoryInstanceRepository;
import io.gamefleet.domain.fakes.MutableClock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.EnumSet;
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
    private static final Instant T0 = DomainOnFakes.T0;
    private static final String GROUP = "big";
    private static final String SCALING_GROUP = Fleet.SETTINGS.autoScalingGroupName(GROUP);
    private static final String DRAINING = "i-0draining0000000";
    private static final int SERVERS = 150;
    private static final List<InstanceDefinition> TYPES =
            List.of(new InstanceDefinition("c5.large", null), new InstanceDefinition("m5.large", null));

    private final DomainOnFakes domain = new DomainOnFakes();
    private final MutableClock clock = domain.clock;
    private final InMemoryGameServerRepository servers = domain.servers;
    private final InMemoryInstanceRepository instances = domain.instances;
    private final FakeCompute compute = domain.compute;
    private final ServiceSettings settings = domain.settings;
    private GameServerGroup group;

    @BeforeEach
    void aDrainingInstanceWithAHundredAndFiftyIdleServersWhoseReplacementIsInService() {
        group = domain.active(GameServerGroup.builder().name(GROUP).instanceDefinitions(TYPES)
                .balancingStrategy(BalancingStrategy.SPOT_PREFERRED).minSize(1).maxSize(4));
        compute.putScalingGroup(SCALING_GROUP, new ScalingGroupState(2, 1, 4, TYPES, false, List.of(
                instance(DRAINING, "c5.large"), instance("i-0active000000000", "c5.large"),
                instance("i-0replacement0000", "m5.large"))));
        instances.save(new GameServerInstance(GROUP, DRAINING, InstanceStatus.DRAINING, "c5.large", "us-east-1a", T0, true));
        instances.save(new GameServerInstance(GROUP, "i-0active000000000", InstanceStatus.ACTIVE, "c5.large", "us-east-1a", T0));
        instances.save(new GameServerInstance(GROUP, "i-0replacement0000", InstanceStatus.ACTIVE, "m5.large", "us-east-1a", T0));
        for (int n = 0; n < SERVERS; n++) {
            servers.register(GameServer.builder().gameServerGroupName(GROUP).gameServerId(id(n)).instanceId(DRAINING)
                    .utilizationStatus(UtilizationStatus.AVAILABLE).registrationTime(T0).lastHealthCheckTime(T0)
                    .instanceStatus(InstanceStatus.DRAINING).instanceLaunchTime(T0).build());
        }
    }

    private static ComputeInstance instance(String id, String type) {
        return new ComputeInstance(id, type, "us-east-1a", T0, true, false);
    }

    private static String id(int n) {
        return String.format("s-%03d", n);
    }

    private SpotBalancer balancer(GameServerRepository repository) {
        return domain.balancer(repository);
    }

    /** The repository, but a matchmaker claims this server while the balancer retires the instance's servers. */
    private GameServerRepository claimedDuringRetire(String gameServerId) {
        return (GameServerRepository) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {GameServerRepository.class}, (proxy, method, args) -> {
                    if (method.getName().equals("retire")) {
                        Instant now = clock.instant();
                        servers.tryClaim(servers.find(gameServerId).orElseThrow(), new ClaimCondition(now,
                                now.minus(settings.healthTimeout()), EnumSet.of(InstanceStatus.ACTIVE, InstanceStatus.DRAINING)),
                                now.plus(settings.claimTtl()), Optional.empty()).orElseThrow();
                    }
                    try {
                        return method.invoke(servers, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void aClaimDuringTheRetirementKeepsTheInstanceAndStrandsNoServer() {
        GroupReport report = balancer(claimedDuringRetire(id(140))).run(group);

        assertThat(report.terminated()).isEmpty();
        assertThat(compute.calls(FakeCompute.TERMINATE_INSTANCE)).isEmpty();
        assertThat(domain.log).anyMatch(line -> line.contains(DRAINING) && line.contains("stays for now"));
        assertThat(servers.listAll(GROUP)).hasSize(SERVERS)
                .allSatisfy(s -> assertThat(s.instanceStatus()).isEqualTo(InstanceStatus.DRAINING));
        assertThat(servers.claimCandidates(GROUP, InstanceStatus.DRAINING, clock.instant(), T0, 25).servers())
                .hasSize(25);

        // While the claim holds, the instance stays; once it lapsed unused, the instance ends.
        assertThat(balancer(servers).run(group).terminated()).isEmpty();
        clock.advance(settings.claimTtl().plusSeconds(1));
        GroupReport later = balancer(servers).run(group);
        assertThat(later.terminated()).containsExactly(DRAINING);
        assertThat(compute.calls(FakeCompute.TERMINATE_INSTANCE)).containsExactly(List.of(SCALING_GROUP, DRAINING, true));
        assertThat(servers.onInstance(DRAINING)).isEmpty();
    }

    @Test
    void withoutAClaimTheInstanceEndsWithAllItsServers() {
        GroupReport report = balancer(servers).run(group);
        assertThat(report.terminated()).containsExactly(DRAINING);
        assertThat(servers.listAll(GROUP)).isEmpty();
        assertThat(instances.find(GROUP, DRAINING)).isEmpty();
    }
}
