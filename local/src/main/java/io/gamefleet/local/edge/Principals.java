package io.gamefleet.local.edge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.catalog.Role;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** The local profile's callers: the built-in admin and those of a {@code --principals} file. */
public final class Principals {
    private static final String DEFAULT_ACCESS_KEY_ID = "local-admin";
    private static final String DEFAULT_SECRET = "local-admin-secret";
    /**
     * What the API reads as an instance-profile session's instance (IamCaller): a session named
     * otherwise is an unbound caller, so a principal meant to be bound must match it exactly.
     */
    private static final Pattern INSTANCE_ID = Pattern.compile("^i-[0-9a-zA-Z]{17}$");

    private Principals() {}

    public static Principal builtInAdmin() {
        String key = System.getenv().getOrDefault("GAMEFLEET_LOCAL_ACCESS_KEY_ID", DEFAULT_ACCESS_KEY_ID);
        String secret = System.getenv().getOrDefault("GAMEFLEET_LOCAL_SECRET_ACCESS_KEY", DEFAULT_SECRET);
        return new Principal(key, secret, Role.ADMIN, Optional.empty());
    }

    /**
     * The functions' own credentials, new each run (a Lambda function's role, in AWS): they sign
     * the functions' calls to the edge's emulated management API (PostToConnection), and are no
     * caller of the Gamefleet API. The role is only a placeholder: no route admits them.
     */
    public static Principal functions() {
        return minted("local-functions-", Role.ADMIN, Optional.empty());
    }

    /**
     * The MATCHMAKER the regions of one run call each other as, new each run (in AWS, a session of
     * the peer's MATCHMAKER role): every region's edge admits it, and its functions that call peers
     * sign with it.
     */
    public static Principal peerMatchmaker() {
        return minted("local-peers-", Role.MATCHMAKER, Optional.empty());
    }

    /**
     * A simulated instance's own credentials, new for each instance (its instance profile, in AWS):
     * a GAME_SERVER session bound to that instance, for its agent.
     */
    public static Principal instance(String instanceId) {
        return minted("local-instance-", Role.GAME_SERVER, Optional.of(instanceId));
    }

    private static Principal minted(String keyPrefix, Role role, Optional<String> instanceId) {
        java.security.SecureRandom random = new java.security.SecureRandom();
        byte[] secret = new byte[24];
        random.nextBytes(secret);
        return new Principal(keyPrefix + Long.toHexString(random.nextLong() & Long.MAX_VALUE),
                java.util.HexFormat.of().formatHex(secret), role, instanceId);
    }

    /** {@code [{"AccessKeyId", "SecretAccessKey", "Role", "InstanceId"?}]}; a bad file is a clear error. */
    public static List<Principal> read(Path file) {
        List<Principal> principals = new ArrayList<>();
        try {
            JsonNode list = new ObjectMapper().readTree(file.toFile());
            if (list == null || !list.isArray()) {
                throw new IllegalArgumentException(file + " must hold a JSON array of principals");
            }
            for (JsonNode p : list) {
                for (String member : List.of("AccessKeyId", "SecretAccessKey", "Role")) {
                    if (!p.hasNonNull(member)) {
                        throw new IllegalArgumentException(file + ": every principal needs " + member + ": " + p);
                    }
                }
                Role role;
                try {
                    role = Role.valueOf(p.get("Role").asText());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(file + ": Role must be ADMIN, MATCHMAKER or GAME_SERVER: " + p);
                }
                principals.add(new Principal(p.get("AccessKeyId").asText(), p.get("SecretAccessKey").asText(), role,
                        instanceId(file, p, role)));
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read principals file " + file + ": " + e.getMessage(), e);
        }
        return principals;
    }

    /**
     * A principal's InstanceId, if it has one: refused unless it is an EC2 instance id on a
     * GAME_SERVER principal. Taken as it was, a malformed one would make the principal silently
     * unbound, free to register game servers on any instance.
     */
    private static Optional<String> instanceId(Path file, JsonNode p, Role role) {
        JsonNode id = p.get("InstanceId");
        if (id == null) {
            return Optional.empty();
        }
        if (role != Role.GAME_SERVER) {
            throw new IllegalArgumentException(file + ": only a GAME_SERVER principal may have an InstanceId: " + p);
        }
        if (!id.isTextual() || !INSTANCE_ID.matcher(id.asText()).matches()) {
            throw new IllegalArgumentException(file + ": InstanceId must be an EC2 instance id (i- and 17 letters or"
                    + " digits, such as i-0123456789abcdef0), not " + id + "; without it the principal would act for"
                    + " any instance: " + p);
        }
        return Optional.of(id.asText());
    }
}
