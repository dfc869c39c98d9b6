package io.gamefleet.domain;

import io.gamefleet.domain.StandbyRepository.Standby;
import io.gamefleet.domain.StandbyState.Evaluation;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * A group's standby buffer as its routes put and read it (Gamefleet's own operations,
 * docs/api.md); the balancer keeps it ({@link StandbyScaler}).
 */
public final class StandbyService {
    private final Groups groups;
    private final StandbyRepository standby;
    private final ServiceSettings settings;
    private final Clock clock;

    public StandbyService(GroupRepository groups, StandbyRepository standby, ServiceSettings settings, Clock clock) {
        this.groups = new Groups(groups);
        this.standby = standby;
        this.settings = settings;
        this.clock = clock;
    }

    /** A group's policy (no buffer when none was put) and its last evaluation, if one ran since it was put. */
    public record StandbyView(String gameServerGroupName, StandbyPolicy policy, Optional<Evaluation> lastEvaluation) {}

    /**
     * Replaces the group's policy, effective at the balancer's next run; its evaluations' state
     * starts again (no surplus counted, no tier held).
     */
    public StandbyView put(String groupNameOrArn, StandbyPolicy policy) {
        GameServerGroup group = existing(groupNameOrArn);
        // The state's one flag outlives a put: whether target tracking's scale-in is off now.
        boolean trackingOff = current(group).map(s -> s.state().targetTrackingScaleInOff()).orElse(false);
        standby.put(group.name(), new Standby(group.creationTime(), UUID.randomUUID().toString(), policy,
                StandbyState.initial().withTargetTrackingScaleInOff(trackingOff)));
        return new StandbyView(group.name(), policy, Optional.empty());
    }

    public StandbyView describe(String groupNameOrArn) {
        GameServerGroup group = existing(groupNameOrArn);
        return current(group).map(s -> new StandbyView(group.name(), s.policy(), s.state().lastEvaluation()))
                .orElseGet(() -> new StandbyView(group.name(), StandbyPolicy.none(), Optional.empty()));
    }

    private GameServerGroup existing(String groupNameOrArn) {
        Instant now = clock.instant();
        GameServerGroup group = groups.require(settings.groupName(groupNameOrArn), now);
        if (group.status() == GameServerGroupStatus.DELETED) {
            throw GamefleetException.notFound("game server group " + group.name() + " is DELETED");
        }
        return group;
    }

    /** The group's own policy: one put for an earlier group of its name is not its. */
    private Optional<Standby> current(GameServerGroup group) {
        return standby.find(group.name()).filter(s -> s.groupCreationTime().equals(group.creationTime()));
    }
}
