package io.gamefleet.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.Role;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;

/**
 * A Gamefleet API the API test suite runs against instead of starting its own local profile:
 * a {@code cdk deploy}ed (or {@code cdklocal deploy}ed) stack, or a {@code local/run} in another
 * process. Chosen by system properties (docs/development.md, "Testing against LocalStack or AWS"):
 * <ul>
 * <li>{@code gamefleet.api.endpoint}: the API's URL (the stack output {@code ApiUrl});
 * <li>{@code aws.accessKeyId}, {@code aws.secretAccessKey}, optional {@code aws.sessionToken}: one
 *     caller allowed every route (the ADMIN policy, or an account administrator);
 * <li>{@code gamefleet.api.region} (else {@code aws.region}, else us-east-1): the signing region;
 * <li>{@code gamefleet.api.group-template}: a JSON file with the CreateGameServerGroup members the
 *     account needs (RoleArn, LaunchTemplate, InstanceDefinitions, VpcSubnets, ...); the tests set
 *     GameServerGroupName, MinSize and MaxSize (and ignore the template's own);
 * <li>{@code gamefleet.api.workflow-timeout-seconds} (default 900): how long a test waits for an
 *     activation or deletion, which takes minutes where instances really launch;
 * <li>optionally, callers of one role each, to check what their policies refuse:
 *     {@code gamefleet.api.matchmaker.accessKeyId}, {@code .secretAccessKey}, {@code .sessionToken}
 *     (the MATCHMAKER policy only), and the same under {@code gamefleet.api.game-server.} (the
 *     GAME_SERVER policy only, with credentials not of an EC2 instance profile, so bound to no instance).
 * </ul>
 */
record DeployedApi(URI endpoint, String region, AwsCredentialsIdentity caller,
        Map<Role, AwsCredentialsIdentity> roleCallers, Optional<ObjectNode> groupTemplate, Duration workflowTimeout) {

    static final String ENDPOINT = "gamefleet.api.endpoint";
    /** Set by each test: a template that sets them would make every test's group the same. */
    private static final Set<String> SET_BY_TESTS = Set.of("GameServerGroupName", "MinSize", "MaxSize");

    private static Optional<DeployedApi> selected;

    /** The API named by the system properties, read once per test JVM. */
    static synchronized Optional<DeployedApi> selected() {
        if (selected == null) {
            selected = fromSystemProperties();
        }
        return selected;
    }

    /** The API named by the system properties, if any; a half-given configuration is an error, not the local profile. */
    private static Optional<DeployedApi> fromSystemProperties() {
        String endpoint = System.getProperty(ENDPOINT, "").strip();
        if (endpoint.isEmpty()) {
            return Optional.empty();
        }
        AwsCredentialsIdentity caller = credentials("aws.").orElseThrow(() -> new IllegalStateException(ENDPOINT
                + " is set, so the tests call that API as one caller allowed every route: give its credentials with "
                + "-Daws.accessKeyId, -Daws.secretAccessKey and, for temporary credentials, -Daws.sessionToken"));
        Map<Role, AwsCredentialsIdentity> roleCallers = new EnumMap<>(Role.class);
        credentials("gamefleet.api.matchmaker.").ifPresent(c -> roleCallers.put(Role.MATCHMAKER, c));
        credentials("gamefleet.api.game-server.").ifPresent(c -> roleCallers.put(Role.GAME_SERVER, c));
        String region = System.getProperty("gamefleet.api.region", System.getProperty("aws.region", "us-east-1"));
        Optional<ObjectNode> template = Optional.ofNullable(System.getProperty("gamefleet.api.group-template"))
                .map(DeployedApi::readTemplate);
        long timeout = Long.parseLong(System.getProperty("gamefleet.api.workflow-timeout-seconds", "900"));
        return Optional.of(new DeployedApi(URI.create(endpoint.replaceAll("/+$", "")), region, caller,
                Map.copyOf(roleCallers), template, Duration.ofSeconds(timeout)));
    }

    /** {@code <prefix>accessKeyId}, {@code secretAccessKey} and optional {@code sessionToken}; half of them is an error. */
    private static Optional<AwsCredentialsIdentity> credentials(String prefix) {
        String key = System.getProperty(prefix + "accessKeyId", "").strip();
        String secret = System.getProperty(prefix + "secretAccessKey", "").strip();
        String token = System.getProperty(prefix + "sessionToken", "").strip();
        if (key.isEmpty() && secret.isEmpty()) {
            return Optional.empty();
        }
        if (key.isEmpty() || secret.isEmpty()) {
            throw new IllegalStateException("give both -D" + prefix + "accessKeyId and -D" + prefix + "secretAccessKey");
        }
        return Optional.of(token.isEmpty() ? AwsCredentialsIdentity.create(key, secret)
                : AwsSessionCredentialsIdentity.create(key, secret, token));
    }

    private static ObjectNode readTemplate(String file) {
        JsonNode json;
        try {
            json = GamefleetClient.JSON.readTree(Files.readString(Path.of(file)));
        } catch (IOException e) {
            throw new UncheckedIOException("gamefleet.api.group-template: cannot read " + file, e);
        }
        if (!(json instanceof ObjectNode template)) {
            throw new IllegalStateException("gamefleet.api.group-template: " + file
                    + " must hold a JSON object of CreateGameServerGroup members");
        }
        SET_BY_TESTS.forEach(template::remove);
        return template;
    }
}
