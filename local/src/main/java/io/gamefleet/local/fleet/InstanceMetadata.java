package io.gamefleet.local.fleet;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.local.fleet.SimulatedFleet.InstanceFacts;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each simulated instance's instance metadata service, IMDSv2 only, as EC2 answers on the
 * instance: {@code PUT /latest/api/token} with {@code X-aws-ec2-metadata-token-ttl-seconds}
 * (1 to 21600) gives a token, which every {@code GET /latest/meta-data/...} must carry in
 * {@code X-aws-ec2-metadata-token} (401 without one, or with one expired on the profile's clock or
 * of another instance). The items an agent reads for notices: {@code spot/instance-action} (404
 * until the instance is interrupted, then {@code {"action":"terminate","time":...}}),
 * {@code events/recommendations/rebalance} (404 until then, {@code {"noticeTime":...}}: EC2 may
 * send it with the warning, and here does) and {@code events/maintenance/scheduled} ({@code []}:
 * the simulated fleet schedules no maintenance); and {@code instance-id}, {@code instance-type},
 * {@code instance-life-cycle}, {@code placement/availability-zone}, and {@code local-ipv4} and
 * {@code public-ipv4} (127.0.0.1: a simulated instance's game servers listen on this machine).
 */
public final class InstanceMetadata {
    public static final String TOKEN_PATH = "/latest/api/token";
    public static final String TOKEN_TTL_HEADER = "X-aws-ec2-metadata-token-ttl-seconds";
    public static final String TOKEN_HEADER = "X-aws-ec2-metadata-token";
    private static final String ITEMS = "/latest/meta-data/";
    private static final long MAX_TTL_SECONDS = 21_600;
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

    private record Token(String instanceId, Instant expiresAt) {}

    private final SimulatedFleet fleet;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Token> tokens = new ConcurrentHashMap<>();

    public InstanceMetadata(SimulatedFleet fleet, Clock clock) {
        this.fleet = fleet;
        this.clock = clock;
    }

    /** A request to the instance's service: its method, the path below it, and two headers' values (or null). */
    public Answer serve(String instanceId, String method, String path, String ttlHeader, String tokenHeader) {
        Optional<InstanceFacts> instance = fleet.instance(instanceId);
        if (instance.isEmpty()) {
            return Answer.error(404, "no simulated instance " + instanceId);
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

    private Answer item(InstanceFacts instance, String item) {
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
            default -> Answer.error(404, "Not Found");
        };
    }

    private void forgetExpired(Instant now) {
        if (tokens.size() > 10_000) {
            tokens.values().removeIf(t -> !now.isBefore(t.expiresAt()));
        }
    }
}
