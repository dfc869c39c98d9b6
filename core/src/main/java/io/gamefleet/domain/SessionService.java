package io.gamefleet.domain;

import io.gamefleet.domain.SessionRepository.Outcome;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Sessions (Gamefleet's own operations, docs/api.md): a matchmaker's claim that it may retry. A
 * session's claim is ClaimGameServer's ({@link GameServerService#claimAnyWith}: the same candidates,
 * refusals, conditions and claim TTL), each candidate written together with the session
 * ({@link SessionRepository#claim}), so that a session id claims one server whatever is retried or
 * runs at once; a request of a stored session's id answers that session, and claims nothing.
 */
public final class SessionService {
    private final GameServerService gameServers;
    private final GameServerRepository servers;
    private final SessionRepository sessions;
    private final PeerRegions peers;
    private final Groups groups;
    private final PageTokens tokens;
    private final ServiceSettings settings;
    private final Clock clock;

    public SessionService(GameServerService gameServers, GroupRepository groups, GameServerRepository servers,
            SessionRepository sessions, PeerRegions peers, PageTokens tokens, ServiceSettings settings, Clock clock) {
        this.gameServers = gameServers;
        this.peers = peers;
        this.groups = new Groups(groups);
        this.servers = servers;
        this.sessions = sessions;
        this.tokens = tokens;
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * A session as it is now: its state, its server while it is the session's (empty once
     * another's or gone), and the server's process as its agent last reported it (its connected
     * players) when one was read.
     */
    public record SessionView(Session session, SessionState state, Optional<GameServer> server,
            Optional<ProcessReport> process) {}

    /** Where a session is: here, as it is now, or in a peer region, as that region answered it. */
    public sealed interface Placed {
        record Here(SessionView view) implements Placed {}

        /** {@code body}: the peer's answer as it sent it. */
        record Elsewhere(String region, String body) implements Placed {}
    }

    /**
     * {@link #place} in this region alone: a new session's server claimed here, or the session of
     * this id as it is now (here; a session of a peer region's is a ConflictException).
     */
    public SessionView create(String groupNameOrArn, String sessionId, Optional<String> sessionCookie,
            List<String> initialPlayers, Optional<Set<InstanceStatus>> instanceStatuses) {
        Placed placed = place(groupNameOrArn, sessionId, sessionCookie, initialPlayers, instanceStatuses, Placement.HOME);
        if (placed instanceof Placed.Here here) {
            return here.view();
        }
        throw GamefleetException.conflict("session " + sessionId + " is a session of region "
                + ((Placed.Elsewhere) placed).region());
    }

    /**
     * Places a new session in the first region of {@code placement}'s order ({@link Placement#order})
     * that claims a server for it: here, as a claim is made, or in a peer, which is asked within the
     * stage's peer budget and skipped when it answers anything else in time. A session of this id
     * that is kept is answered as it is now, wherever it was placed, if this request asks what it
     * asked (a ConflictException naming the member otherwise): the home region keeps the region of
     * each session it placed elsewhere. OutOfCapacityException, listing what each region said,
     * when no region placed it, with no session stored here.
     *
     * <p>A peer whose answer comes too late may have claimed a server all the same: that claim is no
     * session's here, and lapses as an unused claim does (the claim TTL).
     */
    public Placed place(String groupNameOrArn, String sessionId, Optional<String> sessionCookie,
            List<String> initialPlayers, Optional<Set<InstanceStatus>> instanceStatuses, Placement placement) {
        String home = settings.region();
        List<String> order = placement.order(home, peers.peers().stream().map(PeerRegions.Peer::region).toList());
        String group = settings.groupName(groupNameOrArn);
        Set<InstanceStatus> allowed = GameServerService.allowedStatuses(instanceStatuses);
        Session.Request request = new Session.Request(sessionId, group, sessionCookie.orElse(null), initialPlayers, allowed);
        if (order.equals(List.of(home))) {
            return claimHere(request); // no read first: a stored session refuses the claim's write
        }
        // A read first: the session may have been placed in a region that is not first this time.
        Optional<Session> stored = sessions.find(sessionId);
        if (stored.isPresent()) {
            return retried(request, stored.get());
        }
        List<String> said = new ArrayList<>();
        for (String region : order) {
            if (region.equals(home)) {
                try {
                    return claimHere(request);
                } catch (GamefleetException e) {
                    if (e.kind() != ErrorKind.OUT_OF_CAPACITY) {
                        throw e;
                    }
                    said.add(home + ": " + e.getMessage());
                }
            } else {
                PeerRegions.Answer answer = peers.createSession(region, request);
                if (answer instanceof PeerRegions.Answer.Placed placed) {
                    Instant now = clock.instant();
                    // Kept as long as the peer can keep its own: an instance launched now, at the most.
                    Optional<Session> meanwhile = sessions.place(Session.placedIn(region, request, placed.gameServerId(),
                            now, settings.lifetime().keepUntil(now, now)));
                    return meanwhile.isPresent() ? retried(request, meanwhile.get())
                            : new Placed.Elsewhere(region, placed.body());
                }
                said.add(region + ": " + ((PeerRegions.Answer.Refused) answer).said());
            }
        }
        throw GamefleetException.outOfCapacity("no region placed session " + sessionId + " (" + String.join("; ", said)
                + ")");
    }

    private Placed claimHere(Session.Request request) {
        String group = request.gameServerGroupName();
        String sessionId = request.sessionId();
        Set<InstanceStatus> allowed = request.instanceStatuses();
        // No read first: a stored session's id refuses the claim's transaction, which then reads it
        // (a retry costs a refused transaction; a first request, the common one, a read less).
        AtomicReference<Session> created = new AtomicReference<>();
        try {
            GameServer server = gameServers.claimAnyWith(group, allowed, (candidate, condition, expiresAt) -> {
                // (a candidate from the claim index shows its id and its instance's launch time)
                Session session = new Session(request, candidate.gameServerId(), condition.now(), expiresAt,
                        settings.lifetime().keepUntil(candidate.instanceLaunchTime(), condition.now()));
                Outcome outcome = sessions.claim(session, candidate, condition);
                if (outcome instanceof Outcome.Exists exists) {
                    throw new StoredMeanwhile(exists.stored());
                } else if (outcome instanceof Outcome.Claimed claimed) {
                    created.set(claimed.session());
                    return Optional.of(claimed.server());
                }
                return Optional.empty();
            });
            gameServers.claimedNotice(server, created.get());
            return new Placed.Here(new SessionView(created.get(), SessionState.CLAIMED, Optional.of(server),
                    Optional.empty()));
        } catch (StoredMeanwhile e) {
            return retried(request, e.stored);
        } catch (GamefleetException e) {
            // A duplicate running at once may have stored it while this one's writes ran out.
            Optional<Session> meanwhile = e.kind() == ErrorKind.OUT_OF_CAPACITY ? sessions.find(sessionId) : Optional.empty();
            if (meanwhile.isPresent()) {
                return retried(request, meanwhile.get());
            }
            throw e;
        }
    }

    /**
     * The session of this id in the group, as it is now; NotFoundException when none is kept there
     * (for a session placed in a peer region, one naming that region, where it is described).
     */
    public SessionView describe(String groupNameOrArn, String sessionId) {
        String group = settings.groupName(groupNameOrArn);
        Session session = sessions.find(sessionId).filter(s -> s.gameServerGroupName().equals(group))
                .orElseThrow(() -> GamefleetException.notFound("session " + sessionId
                        + " is not a session of game server group " + group));
        if (session.placedIn().isPresent()) {
            throw GamefleetException.notFound("session " + sessionId + " was placed in region " + session.placedIn().get()
                    + ": it is described there (or by CreateSession with its SessionId here)");
        }
        return view(session);
    }

    /**
     * The session whose claim the server's current claim is (its id on the server, as the session's
     * claim left it, and its claim time the server's last: {@link Session#ownServer}), for the game
     * server process on the server's own instance or an administrator: what the claimed notice
     * hands the game, read when the notice was lost. UnauthorizedException, with nothing read, for
     * any other caller, and for a process of another instance once the server is read;
     * NotFoundException when the server's claim is no session's (a ClaimGameServer's, or none).
     */
    public Session ofServer(String groupNameOrArn, String gameServerId, Caller caller) {
        if (!caller.administrator() && !caller.instanceVerified()) {
            throw GamefleetException.unauthorized("a game server's session is read by the game server process on its"
                    + " own instance (a session of this deployment's GameServer instance role) or an ADMIN");
        }
        GameServer server = gameServers.describe(groupNameOrArn, gameServerId, caller); // its instance's, or refused
        return Optional.ofNullable(server.claimSessionId()).flatMap(sessions::find)
                .filter(s -> s.ownServer(Optional.of(server)).isPresent())
                .orElseThrow(() -> GamefleetException.notFound("game server " + gameServerId
                        + "'s current claim is no session's"));
    }

    /**
     * One page of the group's sessions that are kept (a store may hold one past its
     * {@code keepUntil} a while: it is left out), newest first, each as {@link #describe} answers
     * it but for its server, read eventually consistent. NotFoundException for an unknown group.
     */
    public Page<SessionView> list(String groupNameOrArn, int limit, Optional<String> nextToken) {
        String group = groups.require(settings.groupName(groupNameOrArn), clock.instant()).name();
        String scope = "ListSessions/" + group;
        Page<Session> page = sessions.listByGroup(group, limit, tokens.redeem(scope, nextToken));
        Instant now = clock.instant();
        Map<String, GameServer> read = servers.findSome(page.items().stream().map(Session::gameServerId)
                .collect(Collectors.toSet())).stream().collect(Collectors.toMap(GameServer::gameServerId,
                Function.identity()));
        List<SessionView> views = page.items().stream().filter(s -> s.keepUntil().isAfter(now))
                .map(s -> view(s, Optional.ofNullable(read.get(s.gameServerId())), now)).toList();
        return new Page<>(views, tokens.issue(scope, page.cursor()));
    }

    /**
     * A stored session's answer to a request of its id: as it is now, here or as its region answers
     * it (asked within the budget; an InternalServiceException, safe to retry, when it does not answer).
     */
    private Placed retried(Session.Request request, Session stored) {
        Optional<String> difference = request.differenceFrom(stored.request());
        if (difference.isPresent()) {
            throw GamefleetException.conflict("session " + stored.sessionId() + " was requested with another "
                    + difference.get() + "; a request with its SessionId must ask exactly what the first asked");
        }
        if (stored.placedIn().isEmpty()) {
            return new Placed.Here(view(stored));
        }
        String region = stored.placedIn().get();
        PeerRegions.Answer answer = peers.peers().stream().anyMatch(p -> p.region().equals(region))
                ? peers.createSession(region, stored.request())
                : new PeerRegions.Answer.Refused("is no peer of this stage any more");
        if (answer instanceof PeerRegions.Answer.Placed placed) {
            return new Placed.Elsewhere(region, placed.body());
        }
        throw GamefleetException.internal("session " + stored.sessionId() + " was placed in " + region + ", which "
                + ((PeerRegions.Answer.Refused) answer).said() + "; try again");
    }

    private SessionView view(Session session) {
        return view(session, servers.find(session.gameServerId()), clock.instant());
    }

    private SessionView view(Session session, Optional<GameServer> read, Instant now) {
        SessionState state = session.stateWith(read, now);
        Optional<GameServer> own = session.ownServer(read);
        Optional<ProcessReport> process = state == SessionState.ENDED ? Optional.empty()
                : own.flatMap(servers::findProcess).map(GameServerProcess::process);
        return new SessionView(session, state, own, process);
    }

    /** A duplicate stored the session between this request's read and its write: the claim ends, and it is answered. */
    private static final class StoredMeanwhile extends RuntimeException {
        private final transient Session stored;

        StoredMeanwhile(Session stored) {
            super(null, null, false, false);
            this.stored = stored;
        }
    }
}
