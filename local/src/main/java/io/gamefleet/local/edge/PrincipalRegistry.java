package io.gamefleet.local.edge;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The edge's callers by access key: those the profile starts with, those it gives out while it
 * runs and takes back, and those an issuer vouches for at each request (each simulated instance's
 * instance profile session, {@link InstanceProfileKeys}).
 */
public final class PrincipalRegistry {
    private final Map<String, Principal> byAccessKey = new ConcurrentHashMap<>();
    private volatile Function<String, Optional<Principal>> issuer = key -> Optional.empty();

    /** A later principal of the same access key wins: a --principals file may replace the built-in admin. */
    public PrincipalRegistry(List<Principal> initial) {
        initial.forEach(p -> byAccessKey.put(p.accessKeyId(), p));
    }

    public Optional<Principal> find(String accessKeyId) {
        return Optional.ofNullable(byAccessKey.get(accessKeyId)).or(() -> issuer.apply(accessKeyId));
    }

    /** From now on also the callers {@code issuer} knows, asked at each request. */
    void issuedBy(Function<String, Optional<Principal>> issuer) {
        this.issuer = issuer;
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
