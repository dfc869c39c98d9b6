package io.gamefleet.domain.fakes;

import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import io.gamefleet.domain.Session;
import io.gamefleet.domain.SessionRepository;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Sessions in memory, claimed under the servers' own lock, so that a claim and its session are one step. */
public final class InMemorySessionRepository implements SessionRepository {
    private final InMemoryGameServerRepository servers;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    public InMemorySessionRepository(InMemoryGameServerRepository servers) {
        this.servers = servers;
    }

    @Override
    public Optional<Session> find(String sessionId) {
        return Optional.ofNullable(sessions.get(sessionId));
    }

    @Override
    public Outcome claim(Session session, GameServer candidate, ClaimCondition condition) {
        synchronized (servers) {
            Session stored = sessions.get(session.sessionId());
            if (stored != null) {
                return new Outcome.Exists(stored);
            }
            Optional<GameServer> claimed = servers.tryClaim(candidate, condition, session.claimExpiresAt(), Optional.empty());
            if (claimed.isEmpty()) {
                return new Outcome.NotClaimed();
            }
            sessions.put(session.sessionId(), session);
            return new Outcome.Claimed(claimed.get(), session);
        }
    }
}
