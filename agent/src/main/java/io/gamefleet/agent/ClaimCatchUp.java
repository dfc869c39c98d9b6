package io.gamefleet.agent;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * A claim made while the push channel was closed (its reconnect every 2 h, a network fault, a
 * restart of the agent) had its notice posted to a connection that was gone. Each time the channel
 * opens, the agent asks DescribeGameServer about its registered StandingBy servers that no claim has
 * reached (at most {@code processes} requests, and none at the first start), and hands each one still
 * CLAIMED to the supervisor as a notice would have. One that cannot be asked lapses, as before.
 */
final class ClaimCatchUp implements Runnable {
    /**
     * How long the process has to hear of a claim found so (its next heartbeat, 1 s away): the API
     * says CLAIMED as of now, not until when.
     */
    static final Duration WINDOW = Duration.ofSeconds(5);

    private final FleetApi api;
    private final Supervisor supervisor;
    private final Executor apiThread;
    private final Clock clock;
    private final AgentLog log;

    ClaimCatchUp(FleetApi api, Supervisor supervisor, Executor apiThread, Clock clock, AgentLog log) {
        this.api = api;
        this.supervisor = supervisor;
        this.apiThread = apiThread;
        this.clock = clock;
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
                Instant now = clock.instant();
                log.info(id + ": claimed while the push channel was closed; telling the process now");
                supervisor.claimed(new Notices.Claimed(id, c.gameServerData(),
                        c.lastClaimTime() == null ? now : c.lastClaimTime(), now.plus(WINDOW)));
            });
        }
    }
}
