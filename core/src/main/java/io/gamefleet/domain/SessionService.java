package io.gamefleet.domain;

import io.gamefleet.domain.SessionRepository.Outcome;
import java.time.Clock;
import java.time.Instant;
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
    private final Groups groups;
    private final PageTokens tokens;
    private final ServiceSettings settings;
    private final Clock clock;

    public SessionService(GameServerService gameServers, GroupRepository groups, GameServerRepository servers,
            SessionRepository sessions, PageTokens tokens, ServiceSettings settings, Clock clock) {
        this.gameServers = gameServers;
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

    /**
     * Claims a server for a new session; a session of this id that is kept is answered as it is
     * now if this request asks what it asked (a ConflictException naming the member otherwise).
     * OutOfCapacityException when no server could be claimed, with no session stored.
     */
    public SessionView create(String groupNameOrArn, String sessionId, Optional<String> sessionCookie,
            List<String> initialPlayers, Optional<Set<InstanceStatus>> instanceStatuses) {
        String group = settings.groupName(groupNameOrArn);
        Set<InstanceStatus> allowed = GameServerService.allowedStatuses(instanceStatuses);
        Session.Request request = new Session.Request(sessionId, group, sessionCookie.orElse(null), initialPlayers, allowed);
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
            return new SessionView(created.get(), SessionState.CLAIMED, Optional.of(server), Optional.empty());
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

    /** The session of this id in the group, as it is now; NotFoundException when none is kept there. */
    public SessionView describe(String groupNameOrArn, String sessionId) {
        String group = settings.groupName(groupNameOrArn);
        Session session = sessions.find(sessionId).filter(s -> s.gameServerGroupName().equals(group))
                .orElseThrow(() -> GamefleetException.notFound("session " + sessionId
                        + " is not a session of game server group " + group));
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

    private SessionView retried(Session.Request request, Session stored) {
        Optional<String> difference = request.differenceFrom(stored.request());
        if (difference.isPresent()) {
            throw GamefleetException.conflict("session " + stored.sessionId() + " was requested with another "
                    + difference.get() + "; a request with its SessionId must ask exactly what the first asked");
        }
        return view(stored);
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
