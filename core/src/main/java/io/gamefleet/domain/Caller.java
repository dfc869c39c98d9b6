package io.gamefleet.domain;

import java.util.Optional;

/**
 * Who is calling, as far as the domain cares: a caller running under an EC2 instance profile is
 * bound to that instance and may act only on its own game servers.
 */
public record Caller(Optional<String> boundInstanceId) {
    public static final Caller UNBOUND = new Caller(Optional.empty());

    public static Caller onInstance(String instanceId) {
        return new Caller(Optional.of(instanceId));
    }

    public void requireInstance(String instanceId) {
        if (boundInstanceId.isPresent() && !boundInstanceId.get().equals(instanceId)) {
            throw GamefleetException.unauthorized(
                    "a game server process may only act on game servers of its own instance");
        }
    }
}
