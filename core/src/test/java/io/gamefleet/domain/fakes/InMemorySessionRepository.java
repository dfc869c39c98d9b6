package io.gamefleet.domain.fakes;

import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import io.gamefleet.domain.Page;
import io.gamefleet.domain.Session;
import io.gamefleet.domain.SessionRepository;
import java.util.Comparator;
import java.util.List;
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

    /** Newest first; the cursor is the last session's id. */
    @Override
    public Page<Session> listByGroup(String group, int limit, Optional<String> cursor) {
        Comparator<Session> newestFirst = Comparator.comparing(Session::claimTime).thenComparing(Session::sessionId)
                .reversed();
        Optional<Session> after = cursor.map(sessions::get);
        List<Session> page = sessions.values().stream().filter(s -> s.gameServerGroupName().equals(group))
                .filter(s -> s.placedIn().isEmpty())
                .filter(s -> after.isEmpty() || newestFirst.compare(s, after.get()) > 0)
                .sorted(newestFirst).limit(limit).toList();
        return new Page<>(page, page.size() == limit ? Optional.of(page.get(limit - 1).sessionId()) : Optional.empty());
    }

    @Override
    public Outcome claim(Session session, GameServer candidate, ClaimCondition condition) {
        synchronized (servers) {
            Session stored = sessions.get(session.sessionId());
            if (stored != null) {
                return new Outcome.Exists(stored);
            }
            Optional<GameServer> claimed = servers.claim(candidate, condition, session.claimExpiresAt(), Optional.empty(),
                    session.sessionId());
            if (claimed.isEmpty()) {
                return new Outcome.NotClaimed();
            }
            sessions.put(session.sessionId(), session);
            return new Outcome.Claimed(claimed.get(), session);
        }
    }

    @Override
    public Optional<Session> place(Session placed) {
        synchronized (servers) {
            Session stored = sessions.putIfAbsent(placed.sessionId(), placed);
            return Optional.ofNullable(stored);
        }
    }
}
