package io.gamefleet.domain;

import java.time.Clock;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/** The game server group operations of the API. */
public final class GroupService {
    private static final int OPTIMISTIC_ATTEMPTS = 5;
    private static final Set<GameServerGroupStatus> DELETABLE =
            EnumSet.of(GameServerGroupStatus.ACTIVE, GameServerGroupStatus.ERROR);
    private static final Set<GameServerGroupStatus> BEING_DELETED = EnumSet.of(
            GameServerGroupStatus.DELETE_SCHEDULED, GameServerGroupStatus.DELETING, GameServerGroupStatus.DELETED);

    private final GroupRepository repository;
    private final InstanceRepository instances;
    private final WorkflowStarter workflows;
    private final PageTokens tokens;
    private final ServiceSettings settings;
    private final Clock clock;
    private final Groups groups;
    private final LaunchGuard launches;

    public GroupService(GroupRepository repository, InstanceRepository instances, WorkflowStarter workflows,
            PageTokens tokens, ServiceSettings settings, Clock clock, LaunchGuard launches) {
        this.launches = launches;
        this.repository = repository;
        this.instances = instances;
        this.workflows = workflows;
        this.tokens = tokens;
        this.settings = settings;
        this.clock = clock;
        this.groups = new Groups(repository);
    }

    /**
     * Tag keys the caller may not set: Gamefleet's and FleetIQ's own, which IAM conditions key on,
     * and AWS's. Compared without case, as IAM compares tag keys.
     */
    static final List<String> RESERVED_TAG_PREFIXES = List.of("gamefleet:", "aws:");
    static final String FLEETIQ_TAG_KEY = "GameLift";

    /**
     * Stores the group as NEW and starts its activation workflow. The launch template is checked
     * (its instance profile must be one the deployment allows) and pinned to the version checked
     * before anything is stored.
     */
    public GameServerGroup create(GameServerGroup draft) {
        requireDistinctTypes(draft.instanceDefinitions());
        requireUnreservedTags(draft.tags());
        requireSizes(draft);
        LaunchTemplate template = draft.launchTemplate();
        if ((template.launchTemplateId() == null) == (template.launchTemplateName() == null)) {
            throw GamefleetException.invalidRequest(
                    "LaunchTemplate must name exactly one of LaunchTemplateId and LaunchTemplateName");
        }
        LaunchTemplate pinned = launches.pin(template);
        return store(draft.toBuilder().launchTemplate(pinned)
                .autoScalingGroupName(settings.autoScalingGroupName(draft.name())));
    }

    /**
     * Stores a container group ({@link GameServerGroup#containers}) as NEW and starts its activation
     * workflow, as {@link #create} does a group on EC2: {@code definition} is its task definition as
     * ECS describes it (empty: there is none), checked by {@link ContainerGroupRules} and pinned to
     * that revision before anything is stored. Its compute is an ECS service named by
     * {@link ServiceSettings#containerServiceName}; it has no instance definitions nor launch template.
     */
    public GameServerGroup createContainerGroup(GameServerGroup draft, Optional<TaskDefinitions.TaskDefinition> definition) {
        requireUnreservedTags(draft.tags());
        requireSizes(draft);
        ContainerCompute containers = ContainerGroupRules.check(draft.containers(), definition);
        return store(draft.toBuilder().containers(containers).instanceDefinitions(List.of()).launchTemplate(null)
                .autoScalingGroupName(settings.containerServiceName(draft.name())));
    }

    private static void requireSizes(GameServerGroup draft) {
        if (draft.minSize() > draft.maxSize()) {
            throw GamefleetException.invalidRequest("MinSize (" + draft.minSize()
                    + ") must not be greater than MaxSize (" + draft.maxSize() + ")");
        }
    }

    private GameServerGroup store(GameServerGroup.Builder checked) {
        Instant now = clock.instant();
        GameServerGroup draft = checked.build();
        GameServerGroup group = checked
                .arn(settings.groupArn(draft.name()))
                .status(GameServerGroupStatus.NEW)
                .creationTime(now)
                .lastUpdatedTime(now)
                .version(0)
                .build();
        repository.create(group);
        try {
            workflows.startActivation(group);
        } catch (RuntimeException e) {
            transition(group.name(), g -> g.toBuilder().status(GameServerGroupStatus.ERROR)
                    .statusReason("the activation workflow could not be started; delete the group and create it again")
                    .build());
            throw GamefleetException.internal("the activation workflow could not be started");
        }
        return group;
    }

    public GameServerGroup describe(String nameOrArn) {
        return groups.require(settings.groupName(nameOrArn), clock.instant());
    }

    public Page<GameServerGroup> list(int limit, Optional<String> nextToken) {
        String scope = "ListGameServerGroups";
        Instant now = clock.instant();
        Page<GameServerGroup> page = repository.list(limit, tokens.redeem(scope, nextToken));
        List<GameServerGroup> visible = page.items().stream()
                .filter(g -> g.expiresAt() == null || g.expiresAt().isAfter(now))
                .toList();
        return new Page<>(visible, tokens.issue(scope, page.cursor()));
    }

    /** The changes UpdateGameServerGroup may make; absent ones are kept. */
    public record GroupUpdate(Optional<String> roleArn, Optional<List<InstanceDefinition>> instanceDefinitions,
            Optional<GameServerProtectionPolicy> protectionPolicy, Optional<BalancingStrategy> balancingStrategy) {}

    public GameServerGroup update(String nameOrArn, GroupUpdate update) {
        update.instanceDefinitions().ifPresent(GroupService::requireDistinctTypes);
        return transition(settings.groupName(nameOrArn), g -> {
            requireNotBeingDeleted(g, "UpdateGameServerGroup");
            if (g.isContainerGroup() && update.instanceDefinitions().isPresent()) {
                throw GamefleetException.invalidRequest("InstanceDefinitions: " + g.name() + " is a container group;"
                        + " its tasks run on the capacity providers of its Capacity, not on instance types");
            }
            if (g.isContainerGroup() && update.balancingStrategy().filter(b -> b != g.balancingStrategy()).isPresent()) {
                // Its service's strategy, with OnDemandBase as Fargate's base, was made from it at creation.
                throw GamefleetException.invalidRequest("BalancingStrategy: " + g.name() + " is a container group;"
                        + " its capacity provider strategy is the one it was created with");
            }
            GameServerGroup.Builder b = g.toBuilder();
            update.roleArn().ifPresent(b::roleArn);
            update.instanceDefinitions().ifPresent(b::instanceDefinitions);
            update.protectionPolicy().ifPresent(b::protectionPolicy);
            update.balancingStrategy().ifPresent(b::balancingStrategy);
            return b.build();
        });
    }

    /**
     * Sets the order of the group's claims (Gamefleet's own setting, kept on the group). Its gates
     * carry it, written with the group, so that claimers learn it from the claim-index reads they
     * make anyway: it takes effect within a claimer's candidates' age. Refused while the group is
     * being deleted, as UpdateGameServerGroup is; the strategy it has already is not written again.
     */
    public GameServerGroup setClaimStrategy(String nameOrArn, ClaimStrategy strategy) {
        return transition(settings.groupName(nameOrArn), g -> {
            requireNotBeingDeleted(g, "PutClaimStrategy");
            return g.claimStrategy() == strategy ? g : g.toBuilder().claimStrategy(strategy).build();
        });
    }

    /**
     * Schedules deletion and starts the deletion workflow: from ACTIVE or ERROR; with FORCE_DELETE
     * from any status but DELETED, so that a group whose workflow is stuck or lost can always be
     * removed (a group already being deleted keeps its status, deletes by force from now on, and
     * gets a deletion workflow of its own; the one that may still run finds its work done).
     */
    public GameServerGroup delete(String nameOrArn, DeleteOption option) {
        GameServerGroup scheduled = transition(settings.groupName(nameOrArn), g -> {
            boolean force = option == DeleteOption.FORCE_DELETE && g.status() != GameServerGroupStatus.DELETED;
            if (!DELETABLE.contains(g.status()) && !force) {
                throw GamefleetException.conflict("DeleteGameServerGroup needs an ACTIVE or ERROR game server group; "
                        + g.name() + " is " + g.status() + (g.status() == GameServerGroupStatus.DELETED ? ""
                        : "; DeleteOption FORCE_DELETE deletes it in any status"));
            }
            GameServerGroupStatus next = BEING_DELETED.contains(g.status()) ? g.status()
                    : GameServerGroupStatus.DELETE_SCHEDULED;
            return g.toBuilder().status(next).statusReason(null).deleteOption(option).build();
        });
        try {
            workflows.startDeletion(scheduled);
        } catch (RuntimeException e) {
            transition(scheduled.name(), g -> g.toBuilder().status(GameServerGroupStatus.ERROR)
                    .statusReason("the deletion workflow could not be started; call DeleteGameServerGroup again")
                    .build());
            throw GamefleetException.internal("the deletion workflow could not be started");
        }
        return scheduled;
    }

    public GameServerGroup suspend(String nameOrArn, Set<GameServerGroupAction> actions) {
        return changeSuspensions(nameOrArn, "SuspendGameServerGroup", actions, true);
    }

    public GameServerGroup resume(String nameOrArn, Set<GameServerGroupAction> actions) {
        return changeSuspensions(nameOrArn, "ResumeGameServerGroup", actions, false);
    }

    private GameServerGroup changeSuspensions(String nameOrArn, String operation,
            Set<GameServerGroupAction> actions, boolean suspend) {
        return transition(settings.groupName(nameOrArn), g -> {
            requireNotBeingDeleted(g, operation);
            Set<GameServerGroupAction> suspended = new HashSet<>(g.suspendedActions());
            if (suspend) {
                suspended.addAll(actions);
            } else {
                suspended.removeAll(actions);
            }
            return g.toBuilder().suspendedActions(suspended).build();
        });
    }

    /**
     * The group's instances as recorded; one that is retiring ({@link InstanceLifetime#retiring})
     * shows as DRAINING from the very moment it is, before the balancer's next run records it so.
     */
    public Page<GameServerInstance> describeInstances(String nameOrArn, Optional<List<String>> instanceIds,
            int limit, Optional<String> nextToken) {
        GameServerGroup group = describe(nameOrArn);
        if (instanceIds.isPresent()) {
            if (nextToken.isPresent()) {
                throw GamefleetException.invalidRequest("NextToken cannot be used together with InstanceIds");
            }
            return new Page<>(asNow(instances.findAll(group.name(), instanceIds.get())), Optional.empty());
        }
        String scope = "DescribeGameServerInstances/" + group.name();
        Page<GameServerInstance> page = instances.list(group.name(), limit, tokens.redeem(scope, nextToken));
        return new Page<>(asNow(page.items()), tokens.issue(scope, page.cursor()));
    }

    private List<GameServerInstance> asNow(List<GameServerInstance> recorded) {
        Instant now = clock.instant();
        return recorded.stream().map(i -> i.instanceStatus() == InstanceStatus.ACTIVE
                && settings.lifetime().retiring(i.launchTime(), now) ? i.withStatus(InstanceStatus.DRAINING) : i).toList();
    }

    /**
     * Reads the group, applies the change and writes it back under optimistic locking, re-reading
     * when a concurrent write came first. The change may throw to refuse, or return the group it
     * was given to leave it as it is: then nothing is written.
     */
    GameServerGroup transition(String name, UnaryOperator<GameServerGroup> change) {
        for (int attempt = 1; ; attempt++) {
            GameServerGroup current = groups.require(name, clock.instant());
            GameServerGroup next = change.apply(current);
            if (next == current) {
                return current;
            }
            GameServerGroup changed = next.toBuilder().lastUpdatedTime(clock.instant()).build();
            try {
                return repository.update(changed);
            } catch (ConcurrentUpdateException e) {
                if (attempt == OPTIMISTIC_ATTEMPTS) {
                    throw GamefleetException.conflict("game server group " + name
                            + " is being changed by another request; try again");
                }
            }
        }
    }

    private static void requireNotBeingDeleted(GameServerGroup g, String operation) {
        if (BEING_DELETED.contains(g.status())) {
            throw GamefleetException.conflict(operation + " is not possible while game server group "
                    + g.name() + " is " + g.status());
        }
    }

    private static void requireUnreservedTags(List<Tag> tags) {
        for (Tag t : tags) {
            String key = t.key().toLowerCase(java.util.Locale.ROOT);
            if (key.equals(FLEETIQ_TAG_KEY.toLowerCase(java.util.Locale.ROOT))
                    || RESERVED_TAG_PREFIXES.stream().anyMatch(key::startsWith)) {
                throw GamefleetException.invalidRequest("Tags: the key " + t.key() + " is reserved (" + FLEETIQ_TAG_KEY
                        + " and keys starting with " + String.join(" or ", RESERVED_TAG_PREFIXES)
                        + " are Gamefleet's, FleetIQ's or AWS's)");
            }
        }
    }

    private static void requireDistinctTypes(List<InstanceDefinition> definitions) {
        Set<String> seen = new HashSet<>();
        for (InstanceDefinition d : definitions) {
            if (!seen.add(d.instanceType())) {
                throw GamefleetException.invalidRequest(
                        "InstanceDefinitions names " + d.instanceType() + " twice; each instance type may appear once");
            }
        }
        if (seen.size() < 2) {
            throw GamefleetException.invalidRequest("InstanceDefinitions must name at least two different instance types");
        }
    }
}
