package io.gamefleet.domain;

import java.util.Optional;

/**
 * Who is calling, as far as the domain cares: a caller whose session is named after an EC2
 * instance is bound to that instance and may act only on its own game servers. The binding is
 * EC2's word ({@code instanceVerified}) only for sessions of the deployment's game server
 * instance role, which EC2 alone may assume and names; anyone may name a session of another role
 * after an instance. {@code administrator}: a session of the deployment's ADMIN role.
 */
public record Caller(Optional<String> boundInstanceId, boolean instanceVerified, boolean administrator) {
    public static final Caller UNBOUND = new Caller(Optional.empty(), false, false);
    public static final Caller ADMINISTRATOR = new Caller(Optional.empty(), false, true);

    /** The game server process on this instance, under the deployment's game server instance role. */
    public static Caller onInstance(String instanceId) {
        return new Caller(Optional.of(instanceId), true, false);
    }

    public void requireInstance(String instanceId) {
        if (boundInstanceId.isPresent() && !boundInstanceId.get().equals(instanceId)) {
            throw GamefleetException.unauthorized(
                    "a game server process may only act on game servers of its own instance");
        }
    }

    /**
     * Whether Auto Scaling may be asked about this instance on the caller's behalf: only for an
     * administrator, or the game server process on that very instance, so that no other caller
     * can make the API call Auto Scaling at will.
     */
    public boolean mayLookUp(String instanceId) {
        return isInstanceOrAdministrator(instanceId);
    }

    /** An administrator, or the game server session of that very instance (EC2's word for it). */
    public boolean isInstanceOrAdministrator(String instanceId) {
        return administrator || (instanceVerified && boundInstanceId.filter(instanceId::equals).isPresent());
    }
}
