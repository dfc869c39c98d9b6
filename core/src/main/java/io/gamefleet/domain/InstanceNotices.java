package io.gamefleet.domain;

import io.gamefleet.domain.InstanceNotifier.Delivery;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The notices sent to an instance's agent after a claim or an operator's deregistration, and at
 * each balancer run while its instance is retiring ({@link #retiring}). A notice is best effort
 * and never fails the request that caused it: a claim whose notice is not delivered lapses by
 * itself, as FleetIQ's does.
 *
 * <p>It goes to the connection copied onto the game server's item, which the claim's (or the
 * deletion's) own write returned, so the claim reads nothing more. A server with no copy is on an
 * instance whose agent has not connected: nothing is sent and nothing read. Only when that
 * connection is gone (410) is the instance read: the stale id is cleared from it, and a newer
 * connection, if the agent reconnected since (and not older than API Gateway's connection
 * lifetime), gets the notice.
 */
public final class InstanceNotices {
    /** The terminate notice's reason when an administrator deregistered the server. */
    public static final String OPERATOR = "operator";
    /** The notice's name where a dropped one is counted. */
    private static final String RETIRING = "retiring";

    private final Supplier<InstanceNotifier> notifier;
    private final InstanceRepository instances;
    private final Supplier<Metrics> metrics;
    private final Consumer<String> log;
    private final Clock clock;

    /**
     * {@code notifier} is asked for at the first notice (making the API client costs a cold start);
     * a dropped notice is logged and counted in {@code metrics}.
     */
    public InstanceNotices(Supplier<InstanceNotifier> notifier, InstanceRepository instances, Supplier<Metrics> metrics,
            Consumer<String> log, Clock clock) {
        this.notifier = notifier;
        this.instances = instances;
        this.metrics = metrics;
        this.log = log;
        this.clock = clock;
    }

    /** A deployment without a push channel: nothing is sent. */
    public static InstanceNotices none() {
        return new InstanceNotices(null, null, null, message -> {}, Clock.systemUTC());
    }

    public void claimed(GameServer server) {
        claimed(server, Optional.empty());
    }

    /** A session's claim: the notice carries the session's id, cookie and initial players. */
    public void claimed(GameServer server, Optional<Session> session) {
        deliver(server, "claimed", connection -> notifier.get().claimed(connection, server, session));
    }

    public void terminate(GameServer server, String reason) {
        deliver(server, "terminate", connection -> notifier.get().terminate(connection, server, reason));
    }

    /**
     * The balancer's notice to a retiring instance ({@code retiresAt}: its end), at each run until
     * the end, so a lost one is made good by the next: to the connection the run read with the
     * instance, if it is open. A gone one is cleared from the instance (a newer one gets the next
     * run's). Returns false when the channel could not be reached: the run then leaves its other
     * notices to the next run rather than wait for each in turn.
     */
    public boolean retiring(GameServerInstance instance, Instant retiresAt) {
        Optional<String> connection = instance.openPushConnection(clock.instant());
        if (notifier == null || connection.isEmpty()) {
            return true;
        }
        try {
            if (notifier.get().retiring(connection.get(), instance, retiresAt) == Delivery.GONE) {
                instances.clearPushConnection(instance.gameServerGroupName(), instance.instanceId(), connection.get());
                log.accept("the " + RETIRING + " notice of instance " + instance.instanceId() + " was dropped: its push"
                        + " connection is gone; the next balancer run tells its next connection");
                dropped(instance.gameServerGroupName(), RETIRING);
            }
            return true;
        } catch (RuntimeException e) {
            log.accept("the " + RETIRING + " notice of instance " + instance.instanceId() + " failed and was dropped: " + e);
            dropped(instance.gameServerGroupName(), RETIRING);
            return false;
        }
    }

    private void deliver(GameServer server, String notice, Function<String, Delivery> post) {
        String carried = server.pushConnectionId();
        if (notifier == null || carried == null) {
            return;
        }
        try {
            if (post.apply(carried) == Delivery.DELIVERED) {
                return;
            }
            instances.clearPushConnection(server.gameServerGroupName(), server.instanceId(), carried);
            // One that outlived API Gateway's lifetime is closed, $disconnect or not: nothing is posted to it.
            Optional<String> current = instances.find(server.gameServerGroupName(), server.instanceId())
                    .flatMap(i -> i.openPushConnection(clock.instant()))
                    .filter(c -> !c.equals(carried));
            if (current.isPresent() && post.apply(current.get()) == Delivery.GONE) {
                instances.clearPushConnection(server.gameServerGroupName(), server.instanceId(), current.get());
                current = Optional.empty();
            }
            if (current.isEmpty()) {
                log.accept("the " + notice + " notice of game server " + server.gameServerId() + " was dropped: instance "
                        + server.instanceId() + " has no open push connection");
                dropped(server.gameServerGroupName(), notice);
            }
        } catch (RuntimeException e) {
            log.accept("the " + notice + " notice of game server " + server.gameServerId() + " to instance "
                    + server.instanceId() + " failed and was dropped: " + e);
            dropped(server.gameServerGroupName(), notice);
        }
    }

    private void dropped(String group, String notice) {
        try {
            metrics.get().undeliveredNotice(group, notice);
        } catch (RuntimeException e) {
            log.accept("the dropped " + notice + " notice could not be counted: " + e);
        }
    }
}
