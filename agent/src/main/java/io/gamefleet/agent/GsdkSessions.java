package io.gamefleet.agent;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.gamefleet.agent.GsdkReplies.Operation;
import io.gamefleet.catalog.PushChannel;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The running processes' GSDK sessions, keyed by their session host ids, and what the GSDK endpoint
 * answers each: its heartbeats (the state it reports, checked against the transitions a process may
 * make; Active once its claim's UTILIZED went through; Terminate once it is stopping; the
 * maintenance fields), its gsdkinfo, and which uid may call for it.
 */
final class GsdkSessions {
    private final Object lock;
    private final AgentConfig config;
    private final String instanceId;
    private final Clock clock;
    private final ProcessSlots slots;
    private final Supplier<MaintenanceEvent.Schedule> maintenance;
    private final AgentLog log;
    private final Runnable changed;
    private final Map<String, ServerRecord> bySessionHost = new HashMap<>();

    GsdkSessions(Object lock, AgentConfig config, String instanceId, Clock clock, ProcessSlots slots,
            Supplier<MaintenanceEvent.Schedule> maintenance, AgentLog log, Runnable changed) {
        this.lock = lock;
        this.config = config;
        this.instanceId = instanceId;
        this.clock = clock;
        this.slots = slots;
        this.maintenance = maintenance;
        this.log = log;
        this.changed = changed;
    }

    /** Called under the lock: the process's session is open from now on. */
    void open(ServerRecord s) {
        bySessionHost.put(s.sessionHostId, s);
    }

    /** Called under the lock: its process has ended, and its id is forgotten. */
    void close(ServerRecord s) {
        bySessionHost.remove(s.sessionHostId);
    }

    /** A GSDK heartbeat of the process with that session host id. */
    GsdkAnswer heartbeat(String sessionHostId, Heartbeat hb) {
        synchronized (lock) {
            Instant now = clock.instant();
            ServerRecord s = bySessionHost.get(sessionHostId);
            if (s == null) {
                return notFound();
            }
            // Once FleetIQ took the claim's UTILIZED, the match is the process's: an Active it reports is accepted
            // even if the reply that told it was lost (the agent restarted before saving that it was sent).
            Optional<String> refusal = GsdkTransitions.refusal(s.state, hb.state(), s.activeSent || s.utilizedWithinClaim());
            if (refusal.isPresent()) {
                return new GsdkAnswer.Refusal(400, "InvalidTransition", refusal.get());
            }
            GameState from = s.state;
            s.state = hb.state();
            s.lastHeartbeat = now;
            s.healthy = !Boolean.FALSE.equals(hb.healthy());
            players(s, hb.players());
            if (from != s.state) {
                changed.run();
                log.info(s.gameServerId + ": " + (from == null ? "first heartbeat" : from) + " -> " + s.state);
                s.everReady |= s.state == GameState.StandingBy;
                s.activeSent |= s.state == GameState.Active;
                if (s.state.ending()) {
                    slots.stop(s, "the process reported " + s.state, slots.endedTooSoon(s, now), true, now);
                }
            }
            Operation operation = Operation.Continue;
            if (s.stopping()) {
                operation = Operation.Terminate;
            } else if (s.state == GameState.StandingBy && s.claim != null && (s.activeSent || s.utilizedWithinClaim())) {
                // UTILIZED first: a process is told Active only once FleetIQ holds the match as its own.
                operation = Operation.Active;
                if (!s.activeSent) {
                    s.activeSent = true;
                    // A session's id, or (a ClaimGameServer has none) one made up, as PlayFab's local agent does.
                    s.sessionId = s.claim.session() != null ? s.claim.session().sessionId()
                            : UUID.randomUUID().toString();
                    changed.run();
                    log.info(s.gameServerId + ": told Active");
                }
            }
            MaintenanceEvent.Schedule schedule = maintenance.get();
            boolean withSchedule = schedule.documentIncarnation() > s.maintenanceIncarnationSent;
            s.maintenanceIncarnationSent = schedule.documentIncarnation();
            // A StandingBy process waits for a claim, which it can learn of only at a heartbeat: it beats faster.
            long intervalMs = operation == Operation.Continue && s.state == GameState.StandingBy
                    ? config.timings().standingByHeartbeat().toMillis() : GsdkReplies.HEARTBEAT_INTERVAL_MS;
            return new GsdkAnswer.Reply(GsdkReplies.reply(operation, intervalMs, s, config.gameServerGroupName(),
                    instanceId, schedule, withSchedule));
        }
    }

    /** The heartbeat's CurrentPlayers: their count, and as many of their ids as a health report carries. */
    private static void players(ServerRecord s, List<String> players) {
        s.connectedPlayers = players.size();
        s.playerIds = players.stream().limit(PushChannel.PROCESS_MAX_PLAYER_IDS)
                .map(id -> id.length() > PushChannel.PROCESS_MAX_PLAYER_ID_LENGTH
                        ? id.substring(0, PushChannel.PROCESS_MAX_PLAYER_ID_LENGTH) : id)
                .toList();
    }

    /**
     * The uid whose process alone may call for that session, or {@link ServerUsers#AGENT_USER} when
     * any may (the agent's user runs it, or no running process has that session host id).
     */
    int ownerOf(String sessionHostId) {
        synchronized (lock) {
            ServerRecord s = bySessionHost.get(sessionHostId);
            return s == null ? ServerUsers.AGENT_USER : s.uid;
        }
    }

    /** {@code POST /v1/metrics/{id}/gsdkinfo}: which GSDK the process uses. */
    GsdkAnswer gsdkInfo(String sessionHostId, String flavor, String version) {
        synchronized (lock) {
            ServerRecord s = bySessionHost.get(sessionHostId);
            if (s == null) {
                return notFound();
            }
            if (s.gsdkFlavor == null) {
                log.info(s.gameServerId + ": GSDK " + flavor + " " + version);
            }
            s.gsdkFlavor = flavor + " " + version;
            return new GsdkAnswer.Reply(JsonNodeFactory.instance.objectNode());
        }
    }

    private static GsdkAnswer notFound() {
        return new GsdkAnswer.Refusal(404, "SessionHostNotFound", "no game server process of this agent has that session host id");
    }
}
