package io.gamefleet.local.edge;

import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.catalog.Role;
import io.gamefleet.local.fleet.InstanceMetadata.RoleCredentials;
import io.gamefleet.local.fleet.SimulatedFleet;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Each simulated instance's instance profile session, as EC2 gives one to an instance: a GAME_SERVER
 * principal bound to the instance ({@link Principals#instance}), made when the instance's keys are
 * first asked for (through its metadata, by its agent), and a caller of the edge
 * ({@link PrincipalRegistry#issuedBy}) while the fleet has the instance: once the instance has ended,
 * its keys are refused. Its session token is signed with every request and, as the edge has no STS,
 * not checked further.
 */
final class InstanceProfileKeys implements Function<String, Optional<RoleCredentials>> {
    private static final String ROLE_NAME = LocalAccount.roleName(Role.GAME_SERVER);

    private record Issued(Principal principal, String token, Instant at) {}

    private final SimulatedFleet fleet;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Issued> byInstance = new ConcurrentHashMap<>();
    private final Map<String, String> instanceByAccessKey = new ConcurrentHashMap<>();

    InstanceProfileKeys(SimulatedFleet fleet, Clock clock) {
        this.fleet = fleet;
        this.clock = clock;
    }

    /** The instance's keys, made at the first call; empty for an instance the fleet does not have. */
    @Override
    public Optional<RoleCredentials> apply(String instanceId) {
        if (fleet.instance(instanceId).isEmpty()) {
            forget(instanceId);
            return Optional.empty();
        }
        Issued issued = byInstance.computeIfAbsent(instanceId, id -> {
            Principal principal = Principals.instance(id);
            instanceByAccessKey.put(principal.accessKeyId(), id);
            byte[] token = new byte[32];
            random.nextBytes(token);
            return new Issued(principal, HexFormat.of().formatHex(token), clock.instant());
        });
        return Optional.of(new RoleCredentials(ROLE_NAME, issued.principal().accessKeyId(),
                issued.principal().secretAccessKey(), issued.token(), issued.at()));
    }

    /** The principal of these keys while its instance runs. */
    Optional<Principal> principal(String accessKeyId) {
        String instanceId = instanceByAccessKey.get(accessKeyId);
        if (instanceId == null) {
            return Optional.empty();
        }
        if (fleet.instance(instanceId).isEmpty()) {
            forget(instanceId);
            return Optional.empty();
        }
        return Optional.ofNullable(byInstance.get(instanceId)).map(Issued::principal);
    }

    private void forget(String instanceId) {
        Issued gone = byInstance.remove(instanceId);
        if (gone != null) {
            instanceByAccessKey.remove(gone.principal().accessKeyId());
        }
    }
}
