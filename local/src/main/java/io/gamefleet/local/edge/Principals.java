package io.gamefleet.local.edge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.catalog.Role;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The local profile's callers: the built-in admin and those of a {@code --principals} file. */
public final class Principals {
    private static final String DEFAULT_ACCESS_KEY_ID = "local-admin";
    private static final String DEFAULT_SECRET = "local-admin-secret";

    private Principals() {}

    public static Principal builtInAdmin() {
        String key = System.getenv().getOrDefault("GAMEFLEET_LOCAL_ACCESS_KEY_ID", DEFAULT_ACCESS_KEY_ID);
        String secret = System.getenv().getOrDefault("GAMEFLEET_LOCAL_SECRET_ACCESS_KEY", DEFAULT_SECRET);
        return new Principal(key, secret, Role.ADMIN, Optional.empty());
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
                        Optional.ofNullable(p.get("InstanceId")).map(JsonNode::asText)));
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read principals file " + file + ": " + e.getMessage(), e);
        }
        return principals;
    }
}
