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
 * DescribeGameServer shows no session, so the server's session is asked too ({@link ServerSessions}):
 * a session's claim reaches the game with the session's id, cookie and initial players, as its notice
 * would have; with none (a ClaimGameServer's claim, or the route failed), with GameServerData alone.
 */
final class ClaimCatchUp implements Runnable {
    private final FleetApi api;
    private final ServerSessions sessions;
    private final Supervisor supervisor;
    private final Executor apiThread;
    /** The stage's claim TTL: DescribeGameServer tells when a claim was made, not when it ends. */
    private final Duration claimTtl;
    private final AgentLog log;

    /** The session whose claim a server's current claim is: empty when it is no session's. */
    interface ServerSessions {
        ServerSessions NONE = gameServerId -> Optional.empty();

        Optional<Notices.Session> of(String gameServerId);
    }

    ClaimCatchUp(FleetApi api, ServerSessions sessions, Supervisor supervisor, Executor apiThread, Duration claimTtl,
            AgentLog log) {
        this.api = api;
        this.sessions = sessions;
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
                supervisor.claimed(new Notices.Claimed(id, c.gameServerData(), c.lastClaimTime(), expires, sessionOf(id)));
            });
        }
    }

    private Notices.Session sessionOf(String id) {
        try {
            Optional<Notices.Session> session = sessions.of(id);
            if (session.isEmpty()) {
                log.info(id + ": its claim is no session's");
            }
            return session.orElse(null);
        } catch (FleetApi.Unreachable e) {
            log.warn(id + ": cannot read the session of its claim (" + e.getMessage() + "); the process is told Active"
                    + " with GameServerData alone, no session's cookie or players");
            return null;
        }
    }
}
