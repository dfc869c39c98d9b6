package io.gamefleet.agent;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * A claim made while the push channel was closed (its reconnect every 2 h, a network fault, a
 * restart of the agent) had its notice posted to a connection that was gone. Each time the channel
 * opens, the agent asks DescribeGameServer about its registered StandingBy servers that no claim has
 * reached (at most {@code processes} requests, and none at the first start), and hands each one still
 * CLAIMED to the supervisor as a notice would have, ending when the claim does ({@code LastClaimTime}
 * plus the stage's claim TTL, {@code timings.claimTtlSeconds}). One that cannot be asked lapses, as before.
 */
final class ClaimCatchUp implements Runnable {
    private final FleetApi api;
    private final Supervisor supervisor;
    private final Executor apiThread;
    /** The stage's claim TTL: DescribeGameServer tells when a claim was made, not when it ends. */
    private final Duration claimTtl;
    private final AgentLog log;

    ClaimCatchUp(FleetApi api, Supervisor supervisor, Executor apiThread, Duration claimTtl, AgentLog log) {
        this.api = api;
        this.supervisor = supervisor;
        this.apiThread = apiThread;
        this.claimTtl = claimTtl;
        this.log = log;
    }

    @Override
    public void run() {
        apiThread.execute(this::catchUp);
    }

    private void catchUp() {
        for (String id : supervisor.unclaimed()) {
            Optional<FleetApi.Claim> claim;
            try {
                claim = api.claimOf(id);
            } catch (FleetApi.Unreachable | FleetApi.NotFound e) {
                log.warn(id + ": cannot check for a claim made while the push channel was closed (" + e.getMessage()
                        + "); such a claim lapses");
                continue;
            }
            claim.ifPresent(c -> {
                if (c.lastClaimTime() == null) {
                    log.warn(id + ": CLAIMED with no LastClaimTime, so no telling when its claim ends; it lapses");
                    return;
                }
                Instant expires = c.lastClaimTime().plus(claimTtl);
                log.info(id + ": claimed at " + c.lastClaimTime() + " while the push channel was closed, until " + expires
                        + "; telling the process now");
                supervisor.claimed(new Notices.Claimed(id, c.gameServerData(), c.lastClaimTime(), expires));
            });
        }
    }
}
