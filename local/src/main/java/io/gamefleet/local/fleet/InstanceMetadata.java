package io.gamefleet.local.fleet;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.local.fleet.SimulatedFleet.InstanceFacts;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Each simulated instance's instance metadata service, IMDSv2 only, as EC2 answers on the
 * instance, to that instance's agent only: every request must carry the instance's endpoint secret
 * ({@link #secretOf}, in the path of the {@code metadataEndpoint} its agent's configuration names,
 * a file no game server may read), else it is refused 403 with nothing of the instance in the
 * answer. EC2 keeps its game servers away by the network instead (docs/agent.md). Then
 * {@code PUT /latest/api/token} with {@code X-aws-ec2-metadata-token-ttl-seconds}
 * (1 to 21600) gives a token, which every {@code GET /latest/meta-data/...} must carry in
 * {@code X-aws-ec2-metadata-token} (401 without one, or with one expired on the profile's clock or
 * of another instance). The items an agent reads for notices: {@code spot/instance-action} (404
 * until the instance is interrupted, then {@code {"action":"terminate","time":...}}),
 * {@code events/recommendations/rebalance} (404 until then, {@code {"noticeTime":...}}: EC2 may
 * send it with the warning, and here does), {@code events/maintenance/scheduled} ({@code []}:
 * the simulated fleet schedules no maintenance) and {@code autoscaling/target-lifecycle-state}
 * ({@code InService}: a simulated scale-in removes the instance at once, which stops its agent); {@code instance-id}, {@code instance-type},
 * {@code instance-life-cycle}, {@code placement/availability-zone}, and {@code local-ipv4} and
 * {@code public-ipv4} (127.0.0.1: a simulated instance's game servers listen on this machine); and
 * the instance profile's keys, {@code iam/security-credentials/} (the role's name) and
 * {@code iam/security-credentials/<role>} ({@link #credentials}), which the agent signs with.
 */
public final class InstanceMetadata {
    public static final String TOKEN_PATH = "/latest/api/token";
    public static final String TOKEN_TTL_HEADER = "X-aws-ec2-metadata-token-ttl-seconds";
    public static final String TOKEN_HEADER = "X-aws-ec2-metadata-token";
    private static final String ITEMS = "/latest/meta-data/";
    private static final String CREDENTIALS = "iam/security-credentials/";
    private static final long MAX_TTL_SECONDS = 21_600;
    /** How long EC2 says an instance profile's keys last: the SDK fetches them again before then. */
    static final Duration KEYS_LAST = Duration.ofHours(6);
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * What the service answers: a status, a content type, a body, and the token's TTL header, which
     * EC2 sends with a token (the SDK's Ec2MetadataClient refuses a token without it).
     */
    public record Answer(int status, String contentType, String body, Optional<Long> tokenTtlSeconds) {
        static Answer text(String body) {
            return new Answer(200, "text/plain", body, Optional.empty());
        }

        static Answer json(String body) {
            return new Answer(200, "application/json", body, Optional.empty());
        }

        static Answer error(int status, String message) {
            return new Answer(status, "text/plain", message, Optional.empty());
        }
    }

    /** An instance profile's keys, as its role's session: the role's name and when the keys were made. */
    public record RoleCredentials(String roleName, String accessKeyId, String secretAccessKey, String token,
            Instant lastUpdated) {}

    private record Token(String instanceId, Instant expiresAt) {}

    private final SimulatedFleet fleet;
    private final Clock clock;
    private final Function<String, Optional<RoleCredentials>> credentialsOf;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Token> tokens = new ConcurrentHashMap<>();
    private final Map<String, String> secrets = new ConcurrentHashMap<>();

    /** {@code credentialsOf}: an instance's instance profile keys, empty for an instance that has none (has ended). */
    public InstanceMetadata(SimulatedFleet fleet, Clock clock, Function<String, Optional<RoleCredentials>> credentialsOf) {
        this.fleet = fleet;
        this.clock = clock;
        this.credentialsOf = credentialsOf;
    }

    /**
     * The instance's endpoint secret, made at the first call: the path segment after the instance's id
     * in its metadata endpoint, which only its agent is given (in its configuration file).
     */
    public String secretOf(String instanceId) {
        if (secrets.size() > 10_000) {
            secrets.keySet().removeIf(id -> fleet.instance(id).isEmpty());
        }
        return secrets.computeIfAbsent(instanceId, id -> {
            byte[] bytes = new byte[32];
            random.nextBytes(bytes);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        });
    }

    /**
     * A request to the instance's service: the endpoint secret it gave, its method, the path below the
     * endpoint, and two headers' values (or null).
     */
    public Answer serve(String instanceId, String secret, String method, String path, String ttlHeader,
            String tokenHeader) {
        Optional<InstanceFacts> instance = fleet.instance(instanceId);
        if (instance.isEmpty()) {
            return Answer.error(404, "no simulated instance " + instanceId);
        }
        String own = secrets.get(instanceId);
        if (own == null || secret == null || !MessageDigest.isEqual(own.getBytes(StandardCharsets.UTF_8),
                secret.getBytes(StandardCharsets.UTF_8))) {
            return Answer.error(403, "Forbidden: instance " + instanceId + "'s metadata answers its agent only, at the"
                    + " metadataEndpoint its configuration names (a game server is given none)");
        }
        if (path.equals(TOKEN_PATH)) {
            return method.equals("PUT") ? token(instanceId, ttlHeader) : Answer.error(405, "the token is made by PUT");
        }
        if (!method.equals("GET") || !path.startsWith(ITEMS)) {
            return Answer.error(404, "no metadata at " + method + " " + path);
        }
        Token token = tokenHeader == null ? null : tokens.get(tokenHeader);
        Instant now = clock.instant();
        if (token == null || !token.instanceId().equals(instanceId) || !now.isBefore(token.expiresAt())) {
            return Answer.error(401, "a valid " + TOKEN_HEADER + " is required (IMDSv2)");
        }
        forgetExpired(now);
        return item(instance.get(), path.substring(ITEMS.length()));
    }

    private Answer token(String instanceId, String ttlHeader) {
        long ttl;
        try {
            ttl = Long.parseLong(ttlHeader == null ? "" : ttlHeader.trim());
        } catch (NumberFormatException e) {
            ttl = 0;
        }
        if (ttl < 1 || ttl > MAX_TTL_SECONDS) {
            return Answer.error(400, TOKEN_TTL_HEADER + " must be a number of seconds from 1 to " + MAX_TTL_SECONDS);
        }
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        String token = HexFormat.of().formatHex(bytes);
        tokens.put(token, new Token(instanceId, clock.instant().plusSeconds(ttl)));
        return new Answer(200, "text/plain", token, Optional.of(ttl));
    }

    /**
     * The instance profile's keys as {@code iam/security-credentials/<role>} answers them, in EC2's shape
     * ({@code Code}, {@code LastUpdated}, {@code Type}, {@code AccessKeyId}, {@code SecretAccessKey},
     * {@code Token}, {@code Expiration}); empty for an instance the fleet does not have.
     */
    public Optional<String> credentials(String instanceId) {
        return credentialsOf.apply(instanceId).map(this::shape);
    }

    private String shape(RoleCredentials c) {
        return JSON.createObjectNode().put("Code", "Success").put("LastUpdated", c.lastUpdated().toString())
                .put("Type", "AWS-HMAC").put("AccessKeyId", c.accessKeyId()).put("SecretAccessKey", c.secretAccessKey())
                .put("Token", c.token()).put("Expiration", clock.instant().plus(KEYS_LAST).toString()).toString();
    }

    private Answer item(InstanceFacts instance, String item) {
        if (item.startsWith(CREDENTIALS)) {
            return roleItem(instance.instanceId(), item.substring(CREDENTIALS.length()));
        }
        Optional<Instant> end = instance.terminationTime();
        return switch (item) {
            case "instance-id" -> Answer.text(instance.instanceId());
            case "instance-type" -> Answer.text(instance.instanceType());
            case "instance-life-cycle" -> Answer.text("spot");
            case "placement/availability-zone" -> Answer.text(instance.availabilityZone());
            // a simulated instance's game ports are on this machine's loopback
            case "local-ipv4", "public-ipv4" -> Answer.text("127.0.0.1");
            case "spot/instance-action" -> end.map(t -> Answer.json(JSON.createObjectNode().put("action", "terminate")
                    .put("time", t.toString()).toString())).orElseGet(() -> Answer.error(404, "Not Found"));
            case "events/recommendations/rebalance" -> end.map(t -> Answer.json(JSON.createObjectNode()
                    .put("noticeTime", t.minus(SimulatedFleet.INTERRUPTION_NOTICE).toString()).toString())).orElseGet(() -> Answer.error(404, "Not Found"));
            case "events/maintenance/scheduled" -> Answer.json("[]");
            // Auto Scaling's word: a simulated scale-in ends the instance at once, and its agent is stopped (SIGTERM's sequence).
            case "autoscaling/target-lifecycle-state" -> Answer.text("InService");
            default -> Answer.error(404, "Not Found");
        };
    }

    /** {@code iam/security-credentials/}: the role's name; {@code .../<role>}: its keys. */
    private Answer roleItem(String instanceId, String role) {
        Optional<RoleCredentials> keys = credentialsOf.apply(instanceId);
        if (keys.isEmpty()) {
            return Answer.error(404, "Not Found");
        }
        if (role.isEmpty()) {
            return Answer.text(keys.get().roleName());
        }
        return role.equals(keys.get().roleName()) ? Answer.json(shape(keys.get())) : Answer.error(404, "Not Found");
    }

    private void forgetExpired(Instant now) {
        if (tokens.size() > 10_000) {
            tokens.values().removeIf(t -> !now.isBefore(t.expiresAt()));
        }
    }
}
