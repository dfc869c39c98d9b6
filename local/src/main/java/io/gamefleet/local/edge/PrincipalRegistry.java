package io.gamefleet.local.edge;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The edge's callers by access key: those the profile starts with, and those it gives out while it
 * runs and takes back (each simulated instance's GAME_SERVER principal, for its agent).
 */
public final class PrincipalRegistry {
    private final Map<String, Principal> byAccessKey = new ConcurrentHashMap<>();

    /** A later principal of the same access key wins: a --principals file may replace the built-in admin. */
    public PrincipalRegistry(List<Principal> initial) {
        initial.forEach(p -> byAccessKey.put(p.accessKeyId(), p));
    }

    public Optional<Principal> find(String accessKeyId) {
        return Optional.ofNullable(byAccessKey.get(accessKeyId));
    }

    /** The secret SigV4 checks a signature with. */
    Optional<String> secretOf(String accessKeyId) {
        return find(accessKeyId).map(Principal::secretAccessKey);
    }

    /** Admits a new caller; an access key in use is refused (it would take over that caller). */
    public void add(Principal principal) {
        if (byAccessKey.putIfAbsent(principal.accessKeyId(), principal) != null) {
            throw new IllegalArgumentException("access key " + principal.accessKeyId() + " is in use");
        }
    }

    /** From now on its signatures are refused. */
    public void remove(String accessKeyId) {
        byAccessKey.remove(accessKeyId);
    }
}
