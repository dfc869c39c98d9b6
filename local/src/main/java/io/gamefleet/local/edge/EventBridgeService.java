package io.gamefleet.local.edge;

import static io.gamefleet.catalog.LocalAccount.ACCOUNT_ID;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.Role;
import io.gamefleet.local.fleet.EventRouter;
import java.io.IOException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * EventBridge: PutEvents ({@code POST /}, AWS JSON 1.1, SigV4-signed for {@code events} by an
 * ADMIN principal, as only the account's administrators may put events in AWS), and
 * {@code POST /_local/events}, which takes events as the rules' targets receive them (behind the
 * local token, {@link LocalGuard}). Both deliver to the catalog's rules.
 */
final class EventBridgeService implements EdgeService {
    private static final String LOCAL_EVENTS = "/_local/events";

    private final EventRouter events;
    private final PrincipalRegistry principals;
    private final String region;
    private final SigV4Verifier verifier;

    EventBridgeService(EventRouter events, PrincipalRegistry principals, String region, Clock clock,
            boolean allowUnsignedPayload) {
        this.events = events;
        this.principals = principals;
        this.region = region;
        this.verifier = new SigV4Verifier(region, Set.of("events"), principals::secretOf, clock, allowUnsignedPayload);
    }

    @Override
    public boolean handles(Exchange exchange) {
        return exchange.isPost(LOCAL_EVENTS) || exchange.isPost("/")
                && "AWSEvents.PutEvents".equals(exchange.headers().getFirst("X-Amz-Target"));
    }

    @Override
    public void serve(Exchange exchange) throws IOException {
        if (exchange.path().equals(LOCAL_EVENTS)) {
            localEvents(exchange);
        } else {
            putEvents(exchange);
        }
    }

    /** One event, or an array of them. */
    @SuppressWarnings("unchecked")
    private void localEvents(Exchange exchange) throws IOException {
        JsonNode parsed = Exchange.JSON.readTree(exchange.body());
        int matched = 0;
        for (JsonNode event : parsed.isArray() ? parsed : Exchange.JSON.createArrayNode().add(parsed)) {
            matched += events.deliver(Exchange.JSON.convertValue(event, Map.class));
        }
        exchange.respond(200, "{\"Matched\":" + matched + "}");
    }

    /** Detail is a JSON string, as the SDKs send it. */
    @SuppressWarnings("unchecked")
    private void putEvents(Exchange exchange) throws IOException {
        SigV4Verifier.Result result = verifier.verify(exchange.method(), exchange.path(), exchange.query(),
                exchange.headers(), exchange.body());
        if (result instanceof SigV4Verifier.Result.Rejected rejected) {
            exchange.respondError(403, "UnauthorizedException", rejected.message());
            return;
        }
        Principal principal = principals.find(((SigV4Verifier.Result.Accepted) result).accessKeyId()).orElse(null);
        if (principal == null) { // taken back since the check
            exchange.respondError(403, "UnauthorizedException", "the signing credentials are no longer valid");
            return;
        }
        exchange.note(AccessLog.CALLER, principal.callerArn());
        if (principal.role() != Role.ADMIN) {
            exchange.respondError(403, "UnauthorizedException", "a " + principal.role() + " caller may not put events");
            return;
        }
        JsonNode entries = Exchange.JSON.readTree(exchange.body()).path("Entries");
        var results = Exchange.JSON.createArrayNode();
        for (JsonNode entry : entries) {
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("version", "0");
            event.put("id", UUID.randomUUID().toString());
            event.put("source", entry.path("Source").asText());
            event.put("detail-type", entry.path("DetailType").asText());
            event.put("account", ACCOUNT_ID);
            event.put("region", region);
            event.put("detail", Exchange.JSON.readValue(entry.path("Detail").asText("{}"), Map.class));
            events.deliver(event);
            results.addObject().put("EventId", (String) event.get("id"));
        }
        exchange.addResponseHeader("Content-Type", "application/x-amz-json-1.1");
        exchange.respond(200, Exchange.JSON.createObjectNode().put("FailedEntryCount", 0).set("Entries", results)
                .toString());
    }
}
