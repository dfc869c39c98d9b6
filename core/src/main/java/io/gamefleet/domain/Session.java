package io.gamefleet.domain;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A session (Gamefleet's own, PlayFab's RequestMultiplayerServer in FleetIQ's terms): the server a
 * matchmaker's {@code sessionId} claimed, with what it asked for ({@link Request}) and when
 * ({@code claimTime}, {@code claimExpiresAt}: the claim it made). Kept until {@code keepUntil} (a
 * store may forget it after).
 *
 * <p>{@code placedIn} names the peer region a session was placed in (its server is a server of
 * that region's, and the claim that region's own session): what the home region keeps of it so
 * that the session id stays the region's ({@link #placedIn}); empty for a session of this region.
 */
public record Session(Request request, String gameServerId, Instant claimTime, Instant claimExpiresAt,
        Instant keepUntil, Optional<String> placedIn) {

    /** A session of this region. */
    public Session(Request request, String gameServerId, Instant claimTime, Instant claimExpiresAt, Instant keepUntil) {
        this(request, gameServerId, claimTime, claimExpiresAt, keepUntil, Optional.empty());
    }

    /** What the home region keeps of a session a peer {@code region} placed at {@code now} on its server {@code gameServerId}. */
    public static Session placedIn(String region, Request request, String gameServerId, Instant now, Instant keepUntil) {
        return new Session(request, gameServerId, now, now, keepUntil, Optional.of(region));
    }

    /**
     * What a session request asks: its group (by name), its cookie (null: none), initial players,
     * and the instance statuses its claim may take a server from (FleetIQ's FilterOption, with
     * ACTIVE and DRAINING when none was given).
     */
    public record Request(String sessionId, String gameServerGroupName, String sessionCookie, List<String> initialPlayers,
            Set<InstanceStatus> instanceStatuses) {
        public Request {
            initialPlayers = List.copyOf(initialPlayers);
            instanceStatuses = instanceStatuses.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(instanceStatuses));
        }

        /** The first member this request asks otherwise than {@code stored} (a retry asks exactly the same). */
        public Optional<String> differenceFrom(Request stored) {
            if (!gameServerGroupName.equals(stored.gameServerGroupName)) {
                return Optional.of("GameServerGroupName (the session is in game server group "
                        + stored.gameServerGroupName + ")");
            } else if (!Objects.equals(sessionCookie, stored.sessionCookie)) {
                return Optional.of("SessionCookie");
            } else if (!initialPlayers.equals(stored.initialPlayers)) {
                return Optional.of("InitialPlayers");
            } else if (!instanceStatuses.equals(stored.instanceStatuses)) {
                return Optional.of("FilterOption");
            }
            return Optional.empty();
        }
    }

    public String sessionId() {
        return request.sessionId();
    }

    public String gameServerGroupName() {
        return request.gameServerGroupName();
    }

    /**
     * Its state at {@code now} with its server as read ({@code server} empty: not registered). The
     * server is this session's while it is registered and its last claim is the session's (a
     * server registered again under the same id, or claimed again after the session's claim
     * lapsed, is not).
     */
    public SessionState stateWith(Optional<GameServer> server, Instant now) {
        Optional<GameServer> own = ownServer(server);
        if (own.isEmpty()) {
            return SessionState.ENDED;
        } else if (own.get().utilizationStatus() == UtilizationStatus.UTILIZED) {
            return SessionState.ACTIVE;
        }
        return claimExpiresAt.isAfter(now) ? SessionState.CLAIMED : SessionState.ENDED;
    }

    /** The server as read, if it is still this session's. */
    public Optional<GameServer> ownServer(Optional<GameServer> server) {
        return server.filter(s -> s.gameServerId().equals(gameServerId) && s.lastClaimTime() != null
                && s.lastClaimTime().toEpochMilli() == claimTime.toEpochMilli());
    }
}
