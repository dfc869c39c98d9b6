package io.gamefleet.domain;

import java.time.Instant;
import java.util.Optional;

/**
 * Sends notices to an instance's agent over its push connection. Implemented in
 * io.gamefleet.adapters.push (API Gateway's management API, PostToConnection). A failure to
 * reach the channel at all is a RuntimeException; {@link InstanceNotices} decides what follows.
 */
public interface InstanceNotifier {
    /** Whether the notice was handed to the connection, or the connection no longer exists (410 Gone). */
    enum Delivery { DELIVERED, GONE }

    /** The server was claimed: its group, id, data, claim time and expiry, and the session it was claimed for, if any. */
    Delivery claimed(String connectionId, GameServer server, Optional<Session> session);

    /** The server is to end (an operator deregistered it): {@code reason} says why. */
    Delivery terminate(String connectionId, GameServer server, String reason);

    /** The instance's maximum lifetime ends at {@code retiresAt}: it takes no claim until then, and is replaced then. */
    Delivery retiring(String connectionId, GameServerInstance instance, Instant retiresAt);

}
