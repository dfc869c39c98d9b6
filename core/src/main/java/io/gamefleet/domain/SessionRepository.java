package io.gamefleet.domain;

import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import java.util.Optional;

/**
 * Storage of sessions, and the one write that claims a session's server. Implemented in
 * io.gamefleet.adapters.dynamodb, beside the game servers it claims.
 */
public interface SessionRepository {

    /** A strongly consistent read; empty when no session of this id is kept. */
    Optional<Session> find(String sessionId);

    /**
     * One page of the group's sessions, newest claim first (of one claim time, the greater session
     * id first), {@code limit} at most, from {@code cursor} (where the page before ended). An
     * eventually consistent read: a session stored a moment ago may be missing. A full page has a
     * cursor even when nothing follows it.
     */
    Page<Session> listByGroup(String group, int limit, Optional<String> cursor);

    /** What {@link #claim} did. */
    sealed interface Outcome {
        /** The server is claimed and the session stored, both at once. */
        record Claimed(GameServer server, Session session) implements Outcome {}

        /** A session of this id was stored already (as it is now): nothing was written. */
        record Exists(Session stored) implements Outcome {}

        /** The candidate was not claimable ({@link GameServerRepository#tryClaim}'s conditions): nothing was written. */
        record NotClaimed() implements Outcome {}
    }

    /**
     * Claims the session's server, the {@code candidate}, as {@link GameServerRepository#tryClaim}
     * does (until the session's {@code claimExpiresAt}, at its {@code claimTime}, the condition's
     * now), and stores the session, only if no session of its id is stored: both or neither, so
     * that of requests with one session id, whatever runs at once, exactly one claims a server.
     */
    Outcome claim(Session session, GameServer candidate, ClaimCondition condition);

    /**
     * Stores what the home region keeps of a session a peer placed ({@link Session#placedIn}), only
     * if no session of its id is stored: empty when stored, else the session stored already (a
     * duplicate's, placed here or elsewhere), with nothing written. Not listed by {@link #listByGroup}.
     */
    Optional<Session> place(Session placed);
}
