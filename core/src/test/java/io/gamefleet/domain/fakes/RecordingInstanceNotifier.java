package io.gamefleet.domain.fakes;

import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.InstanceNotifier;
import io.gamefleet.domain.Session;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The push channel's management API in memory: the notices handed to each open connection, in
 * order. A connection {@link #close}d answers Gone, as API Gateway's 410; {@link #failing} makes
 * every post throw, as an unreachable endpoint would.
 */
public final class RecordingInstanceNotifier implements InstanceNotifier {
    /**
     * One notice as posted: its connection, action, server and (for terminate) reason, and (for a
     * session's claim) its session; a retiring notice names its instance and end instead of a server.
     */
    public record Notice(String connectionId, String action, GameServer server, String reason,
            GameServerInstance instance, Instant retiresAt, Optional<Session> session) {
        public Notice(String connectionId, String action, GameServer server, String reason) {
            this(connectionId, action, server, reason, null, null, Optional.empty());
        }

        Notice(String connectionId, String action, GameServer server, String reason, Optional<Session> session) {
            this(connectionId, action, server, reason, null, null, session);
        }
    }

    private final List<Notice> delivered = new ArrayList<>();
    private final Set<String> closed = new HashSet<>();
    private int posts;
    private boolean failing;

    @Override
    public synchronized Delivery claimed(String connectionId, GameServer server, Optional<Session> session) {
        return post(new Notice(connectionId, "claimed", server, null, session));
    }

    @Override
    public synchronized Delivery terminate(String connectionId, GameServer server, String reason) {
        return post(new Notice(connectionId, "terminate", server, reason));
    }

    @Override
    public synchronized Delivery retiring(String connectionId, GameServerInstance instance, Instant retiresAt) {
        return post(new Notice(connectionId, "retiring", null, null, instance, retiresAt, Optional.empty()));
    }

    private Delivery post(Notice notice) {
        posts++;
        if (failing) {
            throw new IllegalStateException("the management API cannot be reached");
        }
        if (closed.contains(notice.connectionId())) {
            return Delivery.GONE;
        }
        delivered.add(notice);
        return Delivery.DELIVERED;
    }

    public synchronized void close(String connectionId) {
        closed.add(connectionId);
    }

    public synchronized void failing(boolean failing) {
        this.failing = failing;
    }

    public synchronized List<Notice> delivered() {
        return List.copyOf(delivered);
    }

    /** Every post tried, delivered or not. */
    public synchronized int posts() {
        return posts;
    }
}
