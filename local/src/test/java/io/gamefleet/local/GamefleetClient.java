package io.gamefleet.local;

import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.local.demo.ApiClient;
import io.gamefleet.local.edge.Principal;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * A small Gamefleet API client for tests: java.net.http, every request signed as
 * {@link ApiClient} signs (SigV4, execute-api) at the time of the given clock, so that moving the
 * profile's clock keeps signatures valid; it can also send what ApiClient never would (unsigned
 * or malformed requests). Every response is checked against docs/api.md's
 * wire rules before it is returned: JSON content, error bodies of exactly {@code __type} and
 * {@code Message} with no internal names, and no {@code null} anywhere in a successful body.
 */
final class GamefleetClient {
    /** Numbers are read as BigDecimal, exactly as sent (timestamps are compared to the millisecond). */
    static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    /** How long a test waits for a workflow of the local profile (a deployed API's client waits its own timeout). */
    static final Duration WORKFLOW = Duration.ofSeconds(20);

    private static final Map<Integer, String> GATEWAY_REFUSALS =
            Map.of(403, "UnauthorizedException", 404, "NotFoundException", 429, "ThrottlingException");

    private final URI endpoint;
    private final String region;
    private final AwsCredentialsIdentity caller;
    private final Clock clock;
    private final Pace pace;

    /**
     * How a client waits for workflows: on the local profile polls are cheap and workflows take
     * milliseconds; a deployed API is polled gently and its workflows launch real instances.
     * {@code behindApiGateway}: some refusals there come from API Gateway itself, not from Gamefleet.
     */
    record Pace(Duration poll, Duration minimumWorkflowTimeout, boolean behindApiGateway) {
        static final Pace LOCAL_PROFILE = new Pace(Duration.ofMillis(20), Duration.ZERO, false);
    }

    GamefleetClient(URI endpoint, String region, AwsCredentialsIdentity caller, Clock clock, Pace pace) {
        this.endpoint = endpoint;
        this.region = region;
        this.caller = caller;
        this.clock = clock;
        this.pace = pace;
    }

    /** A client of the local profile at {@code endpoint}, signing as {@code principal} by {@code clock}. */
    GamefleetClient(URI endpoint, Principal principal, Clock clock) {
        this(endpoint, LocalAccount.REGION, AwsCredentialsIdentity.create(principal.accessKeyId(),
                principal.secretAccessKey()), clock, Pace.LOCAL_PROFILE);
    }

    /** The same API with other credentials (for example a wrong secret). */
    GamefleetClient as(String accessKey, String secret) {
        return new GamefleetClient(endpoint, region, AwsCredentialsIdentity.create(accessKey, secret), clock, pace);
    }

    /** This caller's access key with the other client's secret: a signature that does not match. */
    GamefleetClient withSecretOf(GamefleetClient other) {
        return as(caller.accessKeyId(), other.caller.secretAccessKey());
    }

    /** The same API and access key with another secret: a signature that does not match. */
    GamefleetClient withSecret(String secret) {
        return as(caller.accessKeyId(), secret);
    }

    /** The same API and caller, signing by another clock (for example one that is late). */
    GamefleetClient signingBy(Clock otherClock) {
        return new GamefleetClient(endpoint, region, caller, otherClock, pace);
    }

    // ---------------------------------------------------------------- responses

    record Response(String method, String target, int status, JsonNode body, String raw) {
        String type() {
            return body.path("__type").asText(null);
        }

        String message() {
            return body.path("Message").asText(null);
        }

        JsonNode server() {
            return body.get("GameServer");
        }

        JsonNode group() {
            return body.get("GameServerGroup");
        }

        String serverId() {
            return server().get("GameServerId").asText();
        }

        /** Asserts status 200 and returns this. */
        Response ok() {
            assertThat(status).as("%s %s -> %s", method, target, raw).isEqualTo(200);
            return this;
        }

        /** Asserts an error of this status and __type and returns this. */
        Response error(int expectedStatus, String expectedType) {
            assertThat(status).as("%s %s -> %s", method, target, raw).isEqualTo(expectedStatus);
            assertThat(type()).as("%s %s -> %s", method, target, raw).isEqualTo(expectedType);
            return this;
        }

        boolean isError(int expectedStatus, String expectedType) {
            return status == expectedStatus && expectedType.equals(type());
        }

        @Override
        public String toString() {
            return method + " " + target + " -> " + status + " " + raw;
        }
    }

    // ---------------------------------------------------------------- raw calls

    Response call(String method, String target) {
        return send(method, target, null, true);
    }

    Response call(String method, String target, JsonNode body) {
        return send(method, target, body == null ? null : body.toString(), true);
    }

    /** {@code body} is sent verbatim (so it may be malformed JSON). */
    Response callRaw(String method, String target, String body) {
        return send(method, target, body, true);
    }

    /** No Authorization, X-Amz-Date or x-amz-content-sha256 header at all. */
    Response callUnsigned(String method, String target, JsonNode body) {
        return send(method, target, body == null ? null : body.toString(), false);
    }

    private Response send(String method, String target, String body, boolean sign) {
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);

        HttpRequest.Builder http = HttpRequest.newBuilder(URI.create(endpoint + target))
                .timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(bytes));
        if (sign) {
            // The signed request carries Content-Type too; send every header it has but Host (set by the client).
            ApiClient.signedHeaders(endpoint, region, caller, clock, method, target, body != null, bytes)
                    .forEach((name, values) -> {
                if (!name.equalsIgnoreCase("host")) {
                    values.forEach(v -> http.header(name, v));
                }
            });
        } else if (body != null) {
            http.header("Content-Type", "application/json");
        }
        HttpResponse<String> response;
        try {
            response = HTTP.send(http.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + target + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        JsonNode json;
        try {
            json = JSON.readTree(response.body());
        } catch (JsonProcessingException e) {
            throw new AssertionError(method + " " + target + " answered " + response.statusCode()
                    + " with a body that is not JSON: " + response.body());
        }
        String gatewayRefusal = GATEWAY_REFUSALS.get(response.statusCode());
        if (pace.behindApiGateway() && gatewayRefusal != null && json.isObject() && !json.has("__type")) {
            // API Gateway answers these before any Gamefleet code runs (IAM authorization, no such
            // route, throttling), with a body of its own ({"message": ...}) that an HTTP API cannot
            // reshape. They are the refusals the local edge server reports with these types.
            json = obj().put("__type", gatewayRefusal)
                    .put("Message", json.has("message") ? json.get("message").asText() : json.path("Message").asText());
        }
        Response r = new Response(method, target, response.statusCode(), json, response.body());
        checkWireRules(r, response.headers().firstValue("Content-Type").orElse(""));
        return r;
    }

    /** docs/api.md's wire format, checked on every response this client sees. */
    private static void checkWireRules(Response r, String contentType) {
        assertThat(contentType).as("Content-Type of %s", r).startsWith("application/json");
        if (r.status() >= 400) {
            assertThat(r.body().isObject()).as("error body of %s", r).isTrue();
            List<String> names = new ArrayList<>();
            r.body().fieldNames().forEachRemaining(names::add);
            assertThat(names).as("error body members of %s", r).containsExactlyInAnyOrder("__type", "Message");
            assertThat(r.body().get("__type").isTextual()).as("__type of %s", r).isTrue();
            assertThat(r.body().get("Message").isTextual()).as("Message of %s", r).isTrue();
            assertThat(r.message()).as("Message of %s", r).isNotBlank()
                    .doesNotContain("io.gamefleet").doesNotContain("software.amazon").doesNotContain("java.")
                    .doesNotContain("\tat ").doesNotContain("Exception:");
            assertThat(r.type()).as("__type of %s", r).isIn("InvalidRequestException", "LimitExceededException",
                    "UnauthorizedException", "NotFoundException", "ConflictException", "OutOfCapacityException",
                    "ThrottlingException", "InternalServiceException");
        } else {
            assertThat(r.status()).as("status of %s", r).isEqualTo(200);
            List<String> nulls = new ArrayList<>();
            findNulls(r.body(), "$", nulls);
            assertThat(nulls).as("null members in %s", r).isEmpty();
        }
    }

    static void findNulls(JsonNode node, String path, List<String> out) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            out.add(path);
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                findNulls(e.getValue(), path + "." + e.getKey(), out);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                findNulls(node.get(i), path + "[" + i + "]", out);
            }
        }
    }

    // ---------------------------------------------------------------- paths and bodies

    /** One path segment, percent-encoded (so an ARN's ':' and '/' survive routing). */
    static String seg(String s) {
        return SdkHttpUtils.urlEncode(s);
    }

    static String groupPath(String group) {
        return "/game-server-groups/" + seg(group);
    }

    static String serverPath(String group, String id) {
        return groupPath(group) + "/game-servers/" + seg(id);
    }

    /** "?a=1&b=2" from name/value pairs (in order), RFC 3986-encoded; "" when empty. */
    static String query(String... namesAndValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (namesAndValues[i + 1] != null) {
                m.put(namesAndValues[i], namesAndValues[i + 1]);
            }
        }
        if (m.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("?");
        m.forEach((k, v) -> b.append(b.length() > 1 ? "&" : "").append(seg(k)).append('=').append(seg(v)));
        return b.toString();
    }

    static ObjectNode obj() {
        return JSON.createObjectNode();
    }

    static ObjectNode parse(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    /**
     * A valid CreateGameServerGroup body: the deployed API's group template
     * ({@code gamefleet.api.group-template}) if one is given, else one the simulated fleet takes.
     */
    static ObjectNode groupBody(String name, int minSize, int maxSize) {
        ObjectNode b = obj();
        b.put("GameServerGroupName", name);
        b.put("MinSize", minSize);
        b.put("MaxSize", maxSize);
        b.setAll(DeployedApi.selected().flatMap(DeployedApi::groupTemplate).map(ObjectNode::deepCopy)
                .orElseGet(GamefleetClient::localGroupTemplate));
        return b;
    }

    private static ObjectNode localGroupTemplate() {
        ObjectNode b = obj();
        b.put("RoleArn", "arn:aws:iam::000000000000:role/GameLiftGameServerGroupRole");
        b.putObject("LaunchTemplate").put("LaunchTemplateName", "arena-lt").put("Version", "1");
        ArrayNode defs = b.putArray("InstanceDefinitions");
        defs.addObject().put("InstanceType", "c5.large");
        defs.addObject().put("InstanceType", "m5.large");
        return b;
    }

    // ---------------------------------------------------------------- operations

    Response createGroup(ObjectNode body) {
        return call("POST", "/game-server-groups", body);
    }

    Response describeGroup(String group) {
        return call("GET", groupPath(group));
    }

    Response listGroups(String query) {
        return call("GET", "/game-server-groups" + query);
    }

    Response updateGroup(String group, ObjectNode body) {
        return call("PATCH", groupPath(group), body);
    }

    Response deleteGroup(String group, String deleteOption) {
        return call("DELETE", groupPath(group) + query("DeleteOption", deleteOption));
    }

    Response suspend(String group, String action) {
        ObjectNode body = obj();
        body.putArray("SuspendActions").add(action);
        return call("POST", groupPath(group) + "/suspend", body);
    }

    Response resume(String group, String action) {
        ObjectNode body = obj();
        body.putArray("ResumeActions").add(action);
        return call("POST", groupPath(group) + "/resume", body);
    }

    Response describeInstances(String group, String query) {
        return call("GET", groupPath(group) + "/instances" + query);
    }

    Response register(String group, String id, String instanceId) {
        ObjectNode body = obj().put("GameServerId", id).put("InstanceId", instanceId)
                .put("ConnectionInfo", "127.0.0.1:7777");
        return call("POST", groupPath(group) + "/game-servers", body);
    }

    Response listServers(String group, String query) {
        return call("GET", groupPath(group) + "/game-servers" + query);
    }

    Response describeServer(String group, String id) {
        return call("GET", serverPath(group, id));
    }

    Response updateServer(String group, String id, ObjectNode body) {
        return call("PATCH", serverPath(group, id), body);
    }

    Response setUtilized(String group, String id) {
        return updateServer(group, id, obj().put("UtilizationStatus", "UTILIZED"));
    }

    Response deregister(String group, String id) {
        return call("DELETE", serverPath(group, id));
    }

    Response claim(String group) {
        return claim(group, obj());
    }

    Response claim(String group, ObjectNode body) {
        return call("POST", groupPath(group) + "/claim", body);
    }

    /** Every item of a paginated listing, following NextToken. */
    List<JsonNode> listAll(String basePathAndQuery, String itemsMember, int limit) {
        List<JsonNode> items = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            String sep = basePathAndQuery.contains("?") ? "&" : "?";
            String target = basePathAndQuery + sep + "Limit=" + limit
                    + (token == null ? "" : "&NextToken=" + seg(token));
            Response page = call("GET", target).ok();
            assertThat(page.body().get(itemsMember).size()).as("page size of %s", page).isLessThanOrEqualTo(limit);
            page.body().get(itemsMember).forEach(items::add);
            token = page.body().path("NextToken").asText(null);
            assertThat(++pages).as("pages of %s (no end?)", basePathAndQuery).isLessThan(1000);
        } while (token != null);
        return items;
    }

    /** Creates the group and waits until it is ACTIVE; returns it as then described. */
    JsonNode createActive(ObjectNode body) {
        createGroup(body).ok();
        return awaitActive(body.get("GameServerGroupName").asText());
    }

    /** Waits for the group's activation and asserts that it ended ACTIVE, not ERROR. */
    JsonNode awaitActive(String group) {
        JsonNode g = awaitGroup(group, Set.of("ACTIVE", "ERROR"), WORKFLOW);
        assertThat(g.get("Status").asText()).as("%s", g).isEqualTo("ACTIVE");
        return g;
    }

    /** The ids of the group's instances, in DescribeGameServerInstances' order. */
    List<String> instanceIds(String group) {
        return describeInstances(group, "").ok().body().findValuesAsText("InstanceId");
    }

    String firstInstance(String group) {
        return instanceIds(group).get(0);
    }

    /** Polls DescribeGameServerGroup until its Status is one of {@code statuses}. */
    JsonNode awaitGroup(String group, Set<String> statuses, Duration timeout) {
        return awaitGroup(group, g -> statuses.contains(g.get("Status").asText()), timeout,
                "Status in " + statuses);
    }

    JsonNode awaitGroup(String group, Predicate<JsonNode> condition, Duration timeout, String what) {
        Duration patience = timeout.compareTo(pace.minimumWorkflowTimeout()) < 0 ? pace.minimumWorkflowTimeout() : timeout;
        Instant deadline = Instant.now().plus(patience);
        JsonNode last = null;
        while (Instant.now().isBefore(deadline)) {
            last = describeGroup(group).ok().group();
            if (condition.test(last)) {
                return last;
            }
            pause(pace.poll().toMillis());
        }
        throw new AssertionError("game server group " + group + " did not reach " + what + " within " + patience
                + "; last seen: " + last);
    }

    /** Waits for an asynchronous workflow to make progress (real time, never the profile's clock). */
    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** What {@code found} finds (not null), asked every 50 ms for real processes' sake, or an AssertionError naming it. */
    static <T> T await(String what, Duration patience, Supplier<T> found) {
        Instant deadline = Instant.now().plus(patience);
        while (Instant.now().isBefore(deadline)) {
            T t = found.get();
            if (t != null) {
                return t;
            }
            pause(50);
        }
        throw new AssertionError(what + " did not happen within " + patience.toSeconds() + " s");
    }
}
