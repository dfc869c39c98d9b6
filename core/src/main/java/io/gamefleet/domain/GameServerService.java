package io.gamefleet.domain;

import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import io.gamefleet.domain.GameServerRepository.ServerUpdate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/** The game server operations of the API: registration, health, utilization, claims. */
public final class GameServerService {
    /**
     * How long updates and registrations rely on the group status this container read: within
     * this time after a group stops being ACTIVE, heartbeats and updates of its servers may still
     * be accepted (a game set UTILIZED then holds a SAFE_DELETE until it ends, as any game does).
     * A registration's write is conditional on the group's gate, so it never lands in a group
     * that is not ACTIVE.
     */
    static final Duration GROUP_STATUS_MAX_AGE = Duration.ofSeconds(1);
    /** Groups whose candidates and status a container keeps; past this, it forgets them all. */
    static final int CACHED_GROUPS = 1_000;
    /** Conditional writes a claimer tries before it gives up on a contended group. */
    static final int MAX_CLAIM_WRITES = 8;
    /**
     * How long a claim may take, the SDK's call timeout (the functions' AwsServices.CALL_TIMEOUT):
     * a claim past it fails with InternalServiceException ("safe to retry") before its next
     * DynamoDB call, so every claim answers within the budget of one call with its retries.
     */
    static final Duration CLAIM_BUDGET = Duration.ofSeconds(8);
    /** Instances remembered as asked of Auto Scaling; bounded, so a stream of made-up ids cannot fill memory. */
    static final int ASKED_INSTANCES = 10_000;

    private final GameServerRepository servers;
    private final InstanceRepository instances;
    private final Supplier<Compute> compute;
    private final ClaimPolicy claimPolicy;
    private final PageTokens tokens;
    private final ServiceSettings settings;
    private final Clock clock;
    private final Groups groups;
    private final InstanceNotices notices;
    private final StandbyEvaluations standby;
    private final AskedInstances askedOfCompute = new AskedInstances(ASKED_INSTANCES);
    private final Map<String, ReadGroup> readGroups = new ConcurrentHashMap<>();
    private final ClaimCandidateCache candidates;
    /** Each instance's registrations, within its fair share of the stage's RegisterGameServer throttle. */
    private final FairShare registrations;

    public GameServerService(GroupRepository groupRepository, GameServerRepository servers,
            InstanceRepository instances, Supplier<Compute> compute, ClaimPolicy claimPolicy, PageTokens tokens,
            ServiceSettings settings, Clock clock) {
        this(groupRepository, servers, instances, compute, claimPolicy, tokens, settings, clock, InstanceNotices.none());
    }

    /** {@code notices}: what a claim and an operator's deregistration tell the instance's agent. */
    public GameServerService(GroupRepository groupRepository, GameServerRepository servers,
            InstanceRepository instances, Supplier<Compute> compute, ClaimPolicy claimPolicy, PageTokens tokens,
            ServiceSettings settings, Clock clock, InstanceNotices notices) {
        this(groupRepository, servers, instances, compute, claimPolicy, tokens, settings, clock, notices,
                StandbyEvaluations.none());
    }

    /**
     * {@code standby}: where claims and deregistrations, which change how many servers are in use
     * and StandingBy, ask for their group's standby buffer to be evaluated before the balancer's next run.
     */
    public GameServerService(GroupRepository groupRepository, GameServerRepository servers,
            InstanceRepository instances, Supplier<Compute> compute, ClaimPolicy claimPolicy, PageTokens tokens,
            ServiceSettings settings, Clock clock, InstanceNotices notices, StandbyEvaluations standby) {
        this.standby = standby;
        this.notices = notices;
        this.compute = compute;
        this.servers = servers;
        this.instances = instances;
        this.claimPolicy = claimPolicy;
        this.tokens = tokens;
        this.settings = settings;
        this.clock = clock;
        this.groups = new Groups(groupRepository);
        this.candidates = new ClaimCandidateCache(servers, groups, claimPolicy);
        this.registrations = new FairShare(settings.instanceLimits().registrations(), clock, "registrations");
    }

    public record Registration(String groupNameOrArn, String gameServerId, String instanceId,
            Optional<String> connectionInfo, Optional<String> gameServerData) {}

    /**
     * Registers an AVAILABLE game server within what one instance may do ({@link InstanceLimits}):
     * an instance's own session registers within its fair share of the stage's throttle (counted
     * before anything is read, so a flood costs no DynamoDB call), ConnectionInfo must name one of
     * the instance's own addresses when the stage checks it, and an instance holds at most the
     * stage's number of game servers, whoever registers them.
     */
    public GameServer register(Registration r, Caller caller) {
        Instant now = clock.instant();
        InstanceLimits limits = settings.instanceLimits();
        caller.requireInstance(r.instanceId());
        if (!caller.administrator() && caller.boundInstanceId().isPresent()) {
            registrations.take(caller.boundInstanceId().get(), "instance " + caller.boundInstanceId().get());
        }
        // The group's status as read within GROUP_STATUS_MAX_AGE: the put's condition on the gate decides.
        GameServerGroup group = recentGroup(settings.groupName(r.groupNameOrArn()), now);
        if (group.status() != GameServerGroupStatus.ACTIVE) {
            throw Groups.notActive(group, "RegisterGameServer");
        }
        GameServerInstance instance = instances.findRecent(group.name(), r.instanceId())
                .orElseGet(() -> newInstance(groups.require(group.name(), now), r.instanceId(), caller));
        if (instance.instanceStatus() == InstanceStatus.SPOT_TERMINATING) {
            throw GamefleetException.conflict("instance " + r.instanceId()
                    + " is being interrupted and takes no new game servers");
        }
        if (limits.connectionInfoCheck() && r.connectionInfo().isPresent()) {
            ConnectionInfoCheck.refusal(r.connectionInfo().get(), instance).ifPresent(why -> {
                throw GamefleetException.invalidRequest(why);
            });
        }
        GameServer server = GameServer.builder()
                .gameServerGroupName(group.name())
                .gameServerId(r.gameServerId())
                .instanceId(r.instanceId())
                .connectionInfo(r.connectionInfo().orElse(null))
                .gameServerData(r.gameServerData().orElse(null))
                .utilizationStatus(UtilizationStatus.AVAILABLE)
                .registrationTime(now)
                .lastHealthCheckTime(now)
                .instanceStatus(instance.instanceStatus())
                .instanceLaunchTime(instance.launchTime())
                .pushConnectionId(instance.openPushConnection(now).orElse(null))
                .build();
        try {
            servers.register(server, group.maxSize(), limits.maxGameServers());
        } catch (GamefleetException e) {
            if (e.kind() == ErrorKind.CONFLICT) {
                // Refused by the gate, perhaps: the group as it is now says exactly why.
                readGroups.remove(group.name());
                GameServerGroup current = groups.require(group.name(), now);
                if (current.status() != GameServerGroupStatus.ACTIVE) {
                    throw Groups.notActive(current, "RegisterGameServer");
                }
            }
            throw e;
        }
        return server;
    }

    /**
     * An instance the Auto Scaling group launched since the balancer last looked: asked of the
     * scaling group and recorded, so its first game server can register at once. Asked only for
     * an administrator or the instance's own game server process, and once per instance in this
     * container: otherwise any caller could make the API call Auto Scaling at will. The balancer
     * records new instances within one period anyway.
     */
    private GameServerInstance newInstance(GameServerGroup group, String instanceId, Caller caller) {
        if (!caller.mayLookUp(instanceId)) {
            throw GamefleetException.invalidRequest("InstanceId " + instanceId + " is not yet known to game server group "
                    + group.name() + ": an instance its Auto Scaling group launched is recorded within one balancer"
                    + " period; register again then, or register from the instance's own game server process");
        }
        if (!askedOfCompute.firstAsk(group.name() + "/" + instanceId)) {
            throw GamefleetException.invalidRequest("InstanceId " + instanceId + " was not an instance of game server"
                    + " group " + group.name() + " when last asked; if it was launched since, it is recorded within"
                    + " one balancer period: register again then");
        }
        Optional<ComputeInstance> found;
        Optional<Compute.LaunchedInstance> launched;
        try {
            found = compute.get().describeInstances(group.autoScalingGroupName()).stream()
                    .filter(i -> i.instanceId().equals(instanceId))
                    .findFirst();
            launched = found.isEmpty() ? Optional.empty()
                    : Optional.ofNullable(compute.get().launched(group.autoScalingGroupName(), List.of(instanceId)).get(instanceId));
        } catch (RuntimeException e) {
            askedOfCompute.forget(group.name() + "/" + instanceId); // no answer: the next registration may ask
            throw e;
        }
        if (found.isEmpty()) {
            throw GamefleetException.invalidRequest("InstanceId " + instanceId + " is not an instance of game server group "
                    + group.name() + " (its Auto Scaling group " + group.autoScalingGroupName() + " does not have it)");
        }
        askedOfCompute.forget(group.name() + "/" + instanceId); // answered: only the ids not found stay
        if (launched.isEmpty()) {
            // Recorded without addresses, its ConnectionInfo could name any host for good.
            throw GamefleetException.internal("instance " + instanceId + " is not described by EC2 yet; it is safe to"
                    + " retry");
        }
        GameServerInstance added = GameServerInstance.active(group.name(), found.get(), launched.get());
        instances.addIfAbsent(added);
        return added;
    }

    /** Instances asked of Auto Scaling in this container and not found (or being asked), the most recent ones. */
    static final class AskedInstances {
        private final Map<String, Boolean> asked;

        AskedInstances(int capacity) {
            this.asked = new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                    return size() > capacity;
                }
            };
        }

        /** True the first time a key is asked (since it was forgotten or pushed out). */
        synchronized boolean firstAsk(String key) {
            return asked.put(key, Boolean.TRUE) == null;
        }

        synchronized void forget(String key) {
            asked.remove(key);
        }
    }

    public GameServer describe(String groupNameOrArn, String gameServerId, Caller caller) {
        String group = settings.groupName(groupNameOrArn);
        GameServer server = servers.find(gameServerId)
                .filter(s -> s.gameServerGroupName().equals(group))
                .orElseThrow(() -> serverNotFound(group, gameServerId));
        caller.requireInstance(server.instanceId());
        return server;
    }

    public Page<GameServer> list(String groupNameOrArn, Optional<SortOrder> order, int limit,
            Optional<String> nextToken) {
        GameServerGroup group = groups.require(settings.groupName(groupNameOrArn), clock.instant());
        SortOrder sort = order.orElse(SortOrder.ASCENDING);
        String scope = "ListGameServers/" + group.name() + "/" + sort;
        Page<GameServer> page = servers.listByGroup(group.name(), sort, limit, tokens.redeem(scope, nextToken));
        return new Page<>(page.items(), tokens.issue(scope, page.cursor()));
    }

    public record Update(String groupNameOrArn, String gameServerId, Optional<String> gameServerData,
            Optional<UtilizationStatus> utilizationStatus, boolean healthy) {}

    public GameServer update(Update u, Caller caller) {
        Instant now = clock.instant();
        // Relies on a group status read within GROUP_STATUS_MAX_AGE (a group item read per update
        // would make the group's one item the hottest of all: docs/capacity.md).
        GameServerGroup group = recentGroup(settings.groupName(u.groupNameOrArn()), now);
        // While a SAFE_DELETE waits for games to end, their servers keep reporting health and
        // data; only new games (UTILIZED) are refused, since they would hold the deletion up. A
        // server in play that says UTILIZED again (with its heartbeat) starts no game.
        boolean setsUtilized = u.utilizationStatus().orElse(null) == UtilizationStatus.UTILIZED;
        if (group.status() != GameServerGroupStatus.ACTIVE
                && (group.status() != GameServerGroupStatus.DELETE_SCHEDULED
                        || setsUtilized && !inPlay(group.name(), u.gameServerId()))) {
            throw Groups.notActive(group, setsUtilized ? "UpdateGameServer to UTILIZED" : "UpdateGameServer");
        }
        ServerUpdate change = new ServerUpdate(u.gameServerData(), u.utilizationStatus(),
                u.healthy() ? Optional.of(now) : Optional.empty());
        return servers.update(group.name(), u.gameServerId(), caller.boundInstanceId(), change)
                .orElseThrow(() -> explainUpdateFailure(group.name(), u, caller));
    }

    /** The group as read at most GROUP_STATUS_MAX_AGE ago (read now if not). */
    private GameServerGroup recentGroup(String name, Instant now) {
        ReadGroup read = readGroups.get(name);
        if (read != null && now.isBefore(read.readAt().plus(GROUP_STATUS_MAX_AGE)) && !now.isBefore(read.readAt())) {
            return read.group();
        }
        GameServerGroup group = groups.requireStatus(name, now);
        if (readGroups.size() >= CACHED_GROUPS) {
            readGroups.clear();
        }
        readGroups.put(name, new ReadGroup(group, now));
        return group;
    }

    private record ReadGroup(GameServerGroup group, Instant readAt) {}

    /** Whether the server is UTILIZED: read before the write, but a server never leaves UTILIZED but by deregistering. */
    private boolean inPlay(String group, String gameServerId) {
        return servers.find(gameServerId)
                .filter(s -> s.gameServerGroupName().equals(group))
                .map(s -> s.utilizationStatus() == UtilizationStatus.UTILIZED)
                .orElse(false);
    }

    private GamefleetException explainUpdateFailure(String group, Update u, Caller caller) {
        GameServer server = describe(group, u.gameServerId(), caller);
        if (u.utilizationStatus().orElse(null) == UtilizationStatus.AVAILABLE
                && server.utilizationStatus() == UtilizationStatus.UTILIZED) {
            return GamefleetException.invalidRequest("game server " + u.gameServerId()
                    + " is UTILIZED and cannot return to AVAILABLE; deregister it when its game ends");
        }
        return GamefleetException.conflict("game server " + u.gameServerId() + " was changed concurrently; try again");
    }

    /**
     * A game server's process as its agent last reported it (Gamefleet's own route, for an
     * administrator); with no process and no time when the server is registered but no report of
     * its process came.
     */
    public GameServerProcess describeProcess(String groupNameOrArn, String gameServerId, Caller caller) {
        if (!caller.administrator()) {
            throw GamefleetException.unauthorized("only an administrator reads a game server's process");
        }
        GameServer server = describe(groupNameOrArn, gameServerId, caller);
        return servers.findProcess(server).orElseGet(() -> new GameServerProcess(server.gameServerGroupName(),
                server.gameServerId(), server.instanceId(), null, null));
    }

    /** An administrator's deregistration (PlayFab's ShutDownMultiplayerServer) also tells the server's agent to end it. */
    public void deregister(String groupNameOrArn, String gameServerId, Caller caller) {
        String group = settings.groupName(groupNameOrArn);
        Optional<GameServer> deleted = servers.deregister(group, gameServerId, caller.boundInstanceId());
        if (deleted.isEmpty()) {
            describe(group, gameServerId, caller); // throws NotFound or Unauthorized, as appropriate
            throw GamefleetException.conflict("game server " + gameServerId + " was changed concurrently; try again");
        }
        if (caller.administrator()) {
            notices.terminate(deleted.get(), InstanceNotices.OPERATOR);
        }
        standby.requested(group);
    }

    public record Claim(String groupNameOrArn, Optional<String> gameServerId, Optional<String> gameServerData,
            Optional<Set<InstanceStatus>> instanceStatuses) {}

    /**
     * A successful claim's notice goes to the server's agent, if it has one, and its group's standby
     * buffer is asked to be evaluated; neither ever fails the claim.
     */
    public GameServer claim(Claim c) {
        GameServer claimed = claimServer(c);
        notices.claimed(claimed);
        standby.requested(claimed.gameServerGroupName());
        return claimed;
    }

    /** The conditional write a claim tries on each candidate ({@link GameServerRepository#tryClaim}, or a session's). */
    interface ClaimWrite {
        Optional<GameServer> tryClaim(GameServer candidate, ClaimCondition condition, Instant claimExpiresAt);
    }

    /**
     * The instance statuses a claim may take a server from: FilterOption's, which must hold ACTIVE,
     * or ACTIVE and DRAINING when it gave none.
     */
    static Set<InstanceStatus> allowedStatuses(Optional<Set<InstanceStatus>> instanceStatuses) {
        Set<InstanceStatus> allowed = instanceStatuses
                .map(s -> s.isEmpty() ? EnumSet.noneOf(InstanceStatus.class) : EnumSet.copyOf(s))
                .orElse(EnumSet.of(InstanceStatus.ACTIVE, InstanceStatus.DRAINING));
        if (!allowed.contains(InstanceStatus.ACTIVE)) {
            throw GamefleetException.invalidRequest("FilterOption.InstanceStatuses must contain ACTIVE");
        }
        return allowed;
    }

    /**
     * A claim of the group's best server as {@link #claim} makes it, each candidate written with
     * {@code write} (a session's claim: {@link SessionService}); its notice is the caller's to send
     * ({@link #claimedNotice}).
     */
    GameServer claimAnyWith(String group, Set<InstanceStatus> allowed, ClaimWrite write) {
        return claimAny(group, allowed, conditionAt(allowed, clock.instant()), write);
    }

    /** A session's claim's notice to the server's agent, and its group's standby request; they never fail the claim. */
    void claimedNotice(GameServer server, Session session) {
        notices.claimed(server, Optional.of(session));
        standby.requested(server.gameServerGroupName());
    }

    private ClaimCondition conditionAt(Set<InstanceStatus> allowed, Instant now) {
        return new ClaimCondition(now, now.minus(settings.healthTimeout()), allowed,
                settings.lifetime().retiringLaunchedBy(now));
    }

    private GameServer claimServer(Claim c) {
        String group = settings.groupName(c.groupNameOrArn());
        Set<InstanceStatus> allowed = allowedStatuses(c.instanceStatuses());
        ClaimCondition condition = conditionAt(allowed, clock.instant());
        if (c.gameServerId().isPresent()) {
            return claimNamed(group, c.gameServerId().get(), condition, condition.now().plus(settings.claimTtl()),
                    c.gameServerData());
        }
        return claimAny(group, allowed, condition,
                (candidate, cond, expiresAt) -> servers.tryClaim(candidate, cond, expiresAt, c.gameServerData()));
    }

    private GameServer claimAny(String group, Set<InstanceStatus> allowed, ClaimCondition condition, ClaimWrite write) {
        Instant expiresAt = condition.now().plus(settings.claimTtl());
        int[] writesLeft = {MAX_CLAIM_WRITES};
        for (InstanceStatus status : List.of(InstanceStatus.ACTIVE, InstanceStatus.DRAINING)) {
            if (allowed.contains(status)) {
                Optional<GameServer> claimed = claimOnStatus(group, status, condition, expiresAt, write, writesLeft);
                if (claimed.isPresent()) {
                    return claimed.get();
                }
            }
        }
        throw GamefleetException.outOfCapacity("no game server of game server group " + group + " can be claimed now");
    }

    /**
     * The uncontended path: one conditional write, on a candidate this container read from the
     * claim index within {@link ClaimCandidateCache#CANDIDATES_MAX_AGE} (one read when it has
     * none left).
     */
    private Optional<GameServer> claimOnStatus(String group, InstanceStatus status, ClaimCondition condition,
            Instant expiresAt, ClaimWrite write, int[] writesLeft) {
        ClaimCandidateCache.Reads reads = new ClaimCandidateCache.Reads();
        while (writesLeft[0] > 0) {
            withinBudget(condition);
            Optional<GameServer> next = candidates.next(group, status, condition, reads);
            if (next.isEmpty()) {
                return Optional.empty();
            }
            GameServer candidate = next.get();
            boolean claimed = false;
            try {
                if (refusal(candidate, condition).isPresent()) {
                    continue;
                }
                writesLeft[0]--;
                withinBudget(condition);
                Optional<GameServer> server = write.tryClaim(candidate, condition, expiresAt);
                claimed = server.isPresent();
                if (claimed) {
                    return server;
                }
            } finally {
                candidates.tried(candidate, claimed, condition.now());
            }
        }
        return Optional.empty();
    }

    /** Refuses to go on with a claim that began more than {@link #CLAIM_BUDGET} ago. */
    private void withinBudget(ClaimCondition condition) {
        if (clock.instant().isAfter(condition.now().plus(CLAIM_BUDGET))) {
            throw GamefleetException.internal("the claim took longer than " + CLAIM_BUDGET.toSeconds()
                    + " seconds; it is safe to retry");
        }
    }

    /** A named claim reads the server first: its refusals say exactly why, and cost no write. */
    private GameServer claimNamed(String group, String gameServerId, ClaimCondition condition, Instant expiresAt,
            Optional<String> data) {
        groups.requireActive(group, condition.now(), "ClaimGameServer");
        GameServer server = describe(group, gameServerId, Caller.UNBOUND);
        refusal(server, condition).ifPresent(why -> {
            throw GamefleetException.conflict("game server " + gameServerId + " cannot be claimed: it " + why);
        });
        return servers.tryClaim(server, condition, expiresAt, data).orElseThrow(() -> GamefleetException.conflict(
                "game server " + gameServerId + " was changed by another request while being claimed; try again"));
    }

    private Optional<String> refusal(GameServer server, ClaimCondition condition) {
        if (server.utilizationStatus() == UtilizationStatus.UTILIZED) {
            return Optional.of("is UTILIZED");
        } else if (server.isClaimedAt(condition.now())) {
            return Optional.of("is already claimed");
        } else if (server.instanceStatus() == InstanceStatus.SPOT_TERMINATING) {
            return Optional.of("is on an instance that is being interrupted");
        } else if (condition.retiring(server.instanceLaunchTime())) {
            // (a candidate from the claim index shows its instance's launch time: no write is tried)
            return Optional.of("is on an instance that is retiring: its maximum lifetime ends at "
                    + settings.lifetime().end(server.instanceLaunchTime()).orElseThrow() + ", less than the guaranteed "
                    + settings.lifetime().guaranteed() + " from now");
        } else if (!condition.instanceStatuses().contains(server.instanceStatus())) {
            return Optional.of("is on a DRAINING instance, which FilterOption excludes");
        } else if (server.lastHealthCheckTime() != null && !server.isHealthyAt(condition.now(), condition.healthCutoff())) {
            // (a candidate from the claim index does not show its health: the write checks it)
            return Optional.of("has not reported health within " + settings.healthTimeout().toSeconds() + " seconds");
        }
        return Optional.empty();
    }

    private static GamefleetException serverNotFound(String group, String gameServerId) {
        return GamefleetException.notFound("game server " + gameServerId + " is not registered in game server group " + group);
    }
}
