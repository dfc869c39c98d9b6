package io.gamefleet.domain;

import io.gamefleet.domain.GameServerRepository.HealthLease;
import io.gamefleet.domain.GameServerRepository.ReportedProcess;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * An agent's health report over its push connection: every health period, one message for all of
 * its instance's game servers. A server's item is written only when its health changes or its
 * lease nears its end, not once per report: a healthy server holds a {@link #LEASE} and is
 * claimable until it ends, renewed once less than {@link #RENEW_BEFORE} is left (a write per
 * server every five minutes instead of one per period). An UNHEALTHY report ends the lease at
 * once, and so does the end of the connection ({@link PushConnections#disconnect}). A silently
 * dead instance's servers therefore stay claimable for at most {@link #LEASE} after its last
 * report (docs/agent.md, "Health over the push channel"). A report may carry each server's process
 * ({@link ProcessReport}), written likewise only when it changed.
 */
public final class HealthReports {
    /** How long a healthy report keeps a server claimable: API Gateway's idle timeout, which ends a dead agent's connection too. */
    public static final Duration LEASE = Duration.ofMinutes(10);
    /** A lease with less than this left is renewed: ten reports of margin at a 30 s period. */
    public static final Duration RENEW_BEFORE = Duration.ofMinutes(5);
    /** The servers one report may list (one BatchGetItem). */
    public static final int MAX_SERVERS = 100;

    /** One server's health, and its process when the agent reports it (older agents do not). */
    public record Report(String gameServerId, boolean healthy, Optional<ProcessReport> process) {
        public Report(String gameServerId, boolean healthy) {
            this(gameServerId, healthy, Optional.empty());
        }
    }

    private final GameServerRepository servers;
    private final InstanceRepository instances;
    private final Supplier<Metrics> metrics;
    private final InstanceLifetime lifetime;
    private final Clock clock;

    /**
     * {@code metrics}: where the reports' process events are counted, asked for at the first.
     * {@code lifetime}: how long instances live, and so how long a server's process is kept.
     */
    public HealthReports(GameServerRepository servers, InstanceRepository instances, Supplier<Metrics> metrics,
            InstanceLifetime lifetime, Clock clock) {
        this.servers = servers;
        this.instances = instances;
        this.metrics = metrics;
        this.lifetime = lifetime;
        this.clock = clock;
    }

    /**
     * Applies the report of connection {@code connectionId}: all or nothing, refused (with nothing
     * written) when it lists no server, too many, one twice, one that is not registered in the
     * group, or one that is not on the connection's own instance. A server's process is written
     * only when it differs from the one its item holds (in the same write as its lease, when that
     * is due too). The instance's process events are counted once the report is taken. Returns how
     * many servers it wrote.
     */
    public int report(String connectionId, String group, List<Report> reports, ProcessEvents events) {
        Instant now = clock.instant();
        Map<String, GameServer> byId = validated(connectionId, group, reports);
        int written = 0;
        for (Report r : reports) {
            GameServer s = byId.get(r.gameServerId());
            Optional<ReportedProcess> process = r.process().filter(p -> changed(s, p))
                    .map(p -> new ReportedProcess(p, now, s.registrationTime(), keepUntil(s, now)));
            Optional<HealthLease> lease = due(s, r.healthy(), connectionId, now)
                    .map(l -> new HealthLease(l.expiresAt(), l.healthCheckTime(), l.pushConnectionId(), process))
                    .or(() -> process.map(p -> new HealthLease(s.healthLeaseExpiresAt(), Optional.empty(), connectionId,
                            Optional.of(p))));
            if (lease.isPresent() && servers.setHealthLease(group, s.gameServerId(), s.instanceId(), lease.get()).isPresent()) {
                written++;
            }
        }
        if (events.any()) {
            metrics.get().processEvents(group, events);
        }
        return written;
    }

    /** A process that reports the same all the while is never forgotten while its server lives. */
    private Instant keepUntil(GameServer s, Instant now) {
        return lifetime.keepUntil(s.instanceLaunchTime(), now);
    }

    /** Whether the report says something the server's item does not hold yet. */
    private static boolean changed(GameServer s, ProcessReport reported) {
        return s.process() == null || !s.process().digest().equals(reported.digest());
    }

    /** The write a report needs, if any: only a change of health, a lease near its end, or a stale connection copy. */
    private static Optional<HealthLease> due(GameServer s, boolean healthy, String connectionId, Instant now) {
        Instant lease = s.healthLeaseExpiresAt();
        boolean live = lease != null && lease.isAfter(now);
        boolean staleCopy = !connectionId.equals(s.pushConnectionId());
        if (healthy && (!live || lease.isBefore(now.plus(RENEW_BEFORE)) || staleCopy)) {
            return Optional.of(new HealthLease(now.plus(LEASE), Optional.of(now), connectionId));
        }
        if (!healthy && (lease == null || live || staleCopy)) {
            return Optional.of(new HealthLease(live || lease == null ? now : lease, Optional.empty(), connectionId));
        }
        return Optional.empty();
    }

    /** The listed servers, once each is known to be in the group and on the connection's own instance. */
    private Map<String, GameServer> validated(String connectionId, String group, List<Report> reports) {
        if (reports.isEmpty() || reports.size() > MAX_SERVERS) {
            throw GamefleetException.invalidRequest("a health report lists 1 to " + MAX_SERVERS + " game servers, not "
                    + reports.size());
        }
        Set<String> ids = new LinkedHashSet<>();
        for (Report r : reports) {
            if (!ids.add(r.gameServerId())) {
                throw GamefleetException.invalidRequest("game server " + r.gameServerId() + " is listed twice");
            }
        }
        Map<String, GameServer> byId = new HashMap<>();
        servers.findSome(ids).forEach(s -> byId.put(s.gameServerId(), s));
        for (String id : ids) { // missing: registered a moment ago, perhaps; the consistent read decides
            if (!byId.containsKey(id)) {
                byId.put(id, servers.find(id).orElseThrow(() -> notRegistered(group, id)));
            }
        }
        String instanceId = null; // the connection's, once one server showed it
        for (String id : ids) {
            GameServer s = byId.get(id);
            if (!s.gameServerGroupName().equals(group)) {
                throw notRegistered(group, id);
            }
            if (instanceId == null) {
                // A copy lags its instance only for a moment (a registration racing a reconnect): the instance decides.
                boolean ours = connectionId.equals(s.pushConnectionId()) || instances.find(group, s.instanceId())
                        .map(GameServerInstance::pushConnectionId).filter(connectionId::equals).isPresent();
                if (!ours) {
                    throw notOnInstance(s);
                }
                instanceId = s.instanceId();
            } else if (!instanceId.equals(s.instanceId())) {
                throw notOnInstance(s);
            }
        }
        return byId;
    }

    private static GamefleetException notRegistered(String group, String gameServerId) {
        return GamefleetException.notFound("game server " + gameServerId + " is not registered in game server group " + group);
    }

    private static GamefleetException notOnInstance(GameServer s) {
        return GamefleetException.unauthorized("game server " + s.gameServerId() + " is not on this push connection's instance:"
                + " an agent reports only its own instance's game servers");
    }
}
