package io.gamefleet.domain;

import io.gamefleet.domain.fakes.FakeCompute;
import io.gamefleet.domain.fakes.InMemoryGameServerRepository;
import io.gamefleet.domain.fakes.InMemoryGroupRepository;
import io.gamefleet.domain.fakes.InMemoryInstanceRepository;
import io.gamefleet.domain.fakes.InMemoryInterruptionRepository;
import io.gamefleet.domain.fakes.MutableClock;
import io.gamefleet.domain.fakes.RecordingMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** The domain's services on in-memory fakes of every port, for a test to arrange and inspect. */
final class DomainOnFakes {
    static final Instant T0 = Instant.parse("2100-01-01T00:00:00Z");

    final MutableClock clock = new MutableClock(T0);
    final InMemoryGameServerRepository servers = new InMemoryGameServerRepository();
    final InMemoryGroupRepository groups = new InMemoryGroupRepository(servers);
    final InMemoryInstanceRepository instances = new InMemoryInstanceRepository();
    final InMemoryInterruptionRepository interruptions = new InMemoryInterruptionRepository();
    final FakeCompute compute = new FakeCompute();
    final RecordingMetrics metrics = new RecordingMetrics();
    /** Claims last 60 s, servers are swept after 180 s without heartbeat. */
    final ServiceSettings settings = new ServiceSettings("us-east-1", "123456789012", Duration.ofSeconds(60),
            Duration.ofSeconds(180), Duration.ofDays(1), Duration.ofMinutes(15), "gamefleet-");
    final List<String> log = new ArrayList<>();

    /** Stores the group ACTIVE, created at T0, and returns it as stored. */
    GameServerGroup active(GameServerGroup.Builder group) {
        GameServerGroup g = group.status(GameServerGroupStatus.ACTIVE).creationTime(T0).lastUpdatedTime(T0).build();
        groups.create(g.toBuilder().arn(settings.groupArn(g.name())).build());
        return groups.find(g.name()).orElseThrow();
    }

    GameServerService gameServers() {
        return new GameServerService(groups, servers, instances, () -> compute, new ClaimPolicy(8, new Random(1)),
                new PageTokens("key"), settings, clock);
    }

    /** On {@code repository} (the fake, or a wrapper of it); an hour's viability window, threshold 0.2. */
    SpotBalancer balancer(GameServerRepository repository) {
        return new SpotBalancer(groups, repository, instances, interruptions, compute, metrics, settings,
                Duration.ofHours(1), 0.2, clock, log::add);
    }

    InstanceEvents instanceEvents() {
        return new InstanceEvents(groups, instances, servers, interruptions, compute, metrics, Duration.ofHours(1),
                clock, log::add);
    }
}
