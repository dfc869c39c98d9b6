package io.gamefleet.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.catalog.Role;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The local profile's callers: the built-in admin and those of a {@code --principals} file. */
final class Principals {
    static final String DEFAULT_ACCESS_KEY_ID = "local-admin";
    static final String DEFAULT_SECRET = "local-admin-secret";

    private Principals() {}

    static Principal builtInAdmin() {
        String key = System.getenv().getOrDefault("GAMEFLEET_LOCAL_ACCESS_KEY_ID", DEFAULT_ACCESS_KEY_ID);
        String secret = System.getenv().getOrDefault("GAMEFLEET_LOCAL_SECRET_ACCESS_KEY", DEFAULT_SECRET);
        return new Principal(key, secret, Role.ADMIN, Optional.empty());
    }

    /** {@code [{"AccessKeyId", "SecretAccessKey", "Role", "InstanceId"?}]}; a bad file is a clear error. */
    static List<Principal> read(Path file) {
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

    private static volatile String node;

    /** The Node.js executable, checked once per JVM, with a message that says what to install. */
    static String node() {
        if (node == null) {
            node = findNode();
        }
        return node;
    }

    private static String findNode() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            String version = new String(p.getInputStream().readAllBytes()).trim();
            if (p.waitFor() == 0 && version.startsWith("v")) {
                return "node";
            }
        } catch (IOException | InterruptedException e) {
            // reported below
        }
        throw new IllegalStateException("Node.js (20 or newer) is needed for the Step Functions sidecar and to run "
                + "the DynamoDB emulator, and was not found on PATH; install it (for example `apt-get install nodejs npm`)"
                + " or pass --dynamodb-endpoint and --stepfunctions-endpoint");
    }
}
