package io.gamefleet.domain;

import io.gamefleet.domain.Metrics.GameServerCounts;
import io.gamefleet.domain.Metrics.ProcessCounts;
import java.time.Instant;

/**
 * A group's counts as one balancer run counted them, at {@code asOf}: what a console shows of a
 * group without listing its servers. {@code gameServers}: every registered server; {@code counts}:
 * FleetIQ's (those the metrics publish: none on SPOT_TERMINATING instances, no AVAILABLE one on a
 * retiring instance); {@code claimable}: of the counted AVAILABLE ones, those under no live claim
 * and on an ACTIVE instance, where a claim with the default filter lands; {@code claimed}: those
 * under a live claim and not yet UTILIZED; {@code onSpotTerminating}: servers on interrupted
 * instances, in none of the counts.
 */
public record GroupSummary(Instant asOf, long gameServers, GameServerCounts counts, long claimable, long claimed,
        long onSpotTerminating, ProcessCounts processes) {}
