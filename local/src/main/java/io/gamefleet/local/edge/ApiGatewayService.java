package io.gamefleet.local.edge;

import static io.gamefleet.catalog.LocalAccount.ACCOUNT_ID;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.gamefleet.api.ApiHandler;
import io.gamefleet.catalog.ExtensionRoute;
import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import io.gamefleet.functions.GameLiftJsonHandler;
import io.gamefleet.local.edge.SigV4Verifier.Result;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The API Gateway HTTP API with IAM auth: SigV4 verification, for the {@code execute-api} signing
 * name and GameLift's own ({@code gamelift}, what the AWS SDKs' GameLift clients sign with when
 * only their endpoint is changed), then one of three doors, each calling its function with a
 * payload 2.0 event: an operation's REST route or its Smithy RPC v2 CBOR path, or one of Gamefleet's
 * own routes (the caller's role
 * checked here, as the route's IAM policy would, 403 before any handler runs), or the AWS JSON 1.1
 * door ({@code POST /} with {@code X-Amz-Target: GameLift.<Operation>}), which checks roles itself.
 * Each route's throttle comes first ({@link RouteThrottles}), as the stage's are in AWS. With
 * {@code strictSigning} only {@code execute-api} is taken, as API Gateway takes it: the way to try a
 * client as it will meet a deployment.
 */
final class ApiGatewayService implements EdgeService {
    private static final Set<String> SIGNING_NAMES = Set.of("execute-api", "gamelift");
    private static final Set<String> STRICT_SIGNING_NAMES = Set.of("execute-api");
    private static final String JSON_TARGET_PREFIX = "GameLift.";

    /** A REST route: an operation's, or one of Gamefleet's own; its roles, and what the access log names it. */
    private record ApiRoute(String method, String path, String[] segments, Set<Role> roles, String name,
            RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler) {
        ApiRoute(String method, String path, Set<Role> roles, String name,
                RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler) {
            this(method, path, path.split("/", -1), roles, name, handler);
        }

        String routeKey() {
            return method + " " + path;
        }
    }

    /** Where a request goes: the function, its route key, and the route whose roles the edge checks (none: the JSON door). */
    private record Match(RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler, String routeKey,
            Optional<ApiRoute> checkedRoute, Map<String, String> pathParameters, boolean binary) {}

    private final List<ApiRoute> routes;
    private final Map<Operation, ApiRoute> byOperation = new EnumMap<>(Operation.class);
    private final GameLiftJsonHandler jsonDoor;
    private final PrincipalRegistry principals;
    private final SigV4Verifier verifier;
    private final RouteThrottles throttles;

    ApiGatewayService(Map<Route, ApiHandler> routes,
            Map<ExtensionRoute, RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>> extensions,
            GameLiftJsonHandler jsonDoor, PrincipalRegistry principals, String region, Clock clock,
            boolean allowUnsignedPayload, RouteThrottles throttles, boolean strictSigning) {
        this.throttles = throttles;
        List<ApiRoute> all = new ArrayList<>();
        routes.forEach((route, handler) -> {
            ApiRoute r = new ApiRoute(route.method(), route.path(), route.roles(), route.operation().fleetIqName(), handler);
            all.add(r);
            byOperation.put(route.operation(), r);
        });
        extensions.forEach((route, handler) -> all.add(new ApiRoute(route.method(), route.path(), route.roles(),
                route.name(), handler)));
        this.routes = List.copyOf(all);
        this.jsonDoor = jsonDoor;
        this.principals = principals;
        this.verifier = new SigV4Verifier(region, strictSigning ? STRICT_SIGNING_NAMES : SIGNING_NAMES,
                principals::secretOf, clock, allowUnsignedPayload);
    }

    @Override
    public boolean handles(Exchange exchange) {
        return match(exchange).isPresent() || !methodsOf(exchange.path()).isEmpty();
    }

    @Override
    public void serve(Exchange exchange) throws IOException {
        Optional<Match> matched = match(exchange);
        if (matched.isEmpty()) { // the path is a route's, the method is not: no route, so nothing is signed or throttled
            Set<String> allowed = methodsOf(exchange.path());
            exchange.note(AccessLog.OPERATION, exchange.method() + " " + exchange.path());
            exchange.respondError(405, "MethodNotAllowedException", "no route for " + exchange.method() + " "
                    + exchange.path() + "; its methods are " + String.join(", ", allowed),
                    Map.of("Allow", String.join(", ", allowed)));
            return;
        }
        Match match = matched.get();
        String target = exchange.headers().getFirst("X-Amz-Target");
        exchange.note(AccessLog.OPERATION, match.checkedRoute().map(ApiRoute::name)
                .orElse(target == null ? match.routeKey() : target.substring(JSON_TARGET_PREFIX.length())));
        // The route's throttle first, whoever sends it, as API Gateway's stage throttles are.
        if (!throttles.admit(match.routeKey())) {
            exchange.respondError(429, "ThrottlingException", throttles.refusal(match.routeKey()));
            return;
        }
        // Decoded before the signature is checked: a malformed escape is a 400 for anyone.
        Map<String, String> query = queryParameters(exchange.query());
        Result result = verifier.verify(exchange.method(), exchange.path(), exchange.query(), exchange.headers(),
                exchange.body());
        if (result instanceof Result.Rejected rejected) {
            exchange.respondError(403, "UnauthorizedException", rejected.message());
            return;
        }
        Optional<Principal> signer = principals.find(((Result.Accepted) result).accessKeyId());
        if (signer.isEmpty()) { // taken back since the check: an instance that ended a moment ago
            exchange.respondError(403, "UnauthorizedException", "the signing credentials are no longer valid");
            return;
        }
        Principal principal = signer.get();
        exchange.note(AccessLog.CALLER, principal.callerArn());
        if (match.checkedRoute().isPresent() && !match.checkedRoute().get().roles().contains(principal.role())) {
            exchange.respondError(403, "UnauthorizedException", "a " + principal.role() + " caller may not call "
                    + match.checkedRoute().get().name());
            return;
        }
        APIGatewayV2HTTPResponse response = match.handler().handleRequest(event(exchange, match, principal, query), null);
        byte[] body = response.getBody() == null ? new byte[0]
                : response.getIsBase64Encoded() ? Base64.getDecoder().decode(response.getBody())
                : response.getBody().getBytes(StandardCharsets.UTF_8);
        exchange.respond(response.getStatusCode(), response.getHeaders() == null ? Map.of() : response.getHeaders(), body);
    }

    private Optional<Match> match(Exchange exchange) {
        if (!exchange.method().equals("POST")) {
            return restRoute(exchange);
        }
        Optional<Operation> cbor = Operation.byCborPath(exchange.path());
        if (cbor.isPresent()) {
            ApiRoute r = byOperation.get(cbor.get());
            return Optional.of(new Match(r.handler(), "POST " + cbor.get().cborPath(), Optional.of(r), Map.of(), true));
        }
        String target = exchange.headers().getFirst("X-Amz-Target");
        if (exchange.path().equals(Routes.JSON_DOOR.path()) && target != null && target.startsWith(JSON_TARGET_PREFIX)) {
            return Optional.of(new Match(jsonDoor, Routes.JSON_DOOR.method() + " " + Routes.JSON_DOOR.path(),
                    Optional.empty(), Map.of(), false));
        }
        return restRoute(exchange);
    }

    private Optional<Match> restRoute(Exchange exchange) {
        String[] segments = exchange.path().split("/", -1);
        for (ApiRoute r : routes) {
            Map<String, String> parameters = match(r, exchange.method(), segments);
            if (parameters != null) {
                return Optional.of(new Match(r.handler(), r.routeKey(), Optional.of(r), parameters, false));
            }
        }
        return Optional.empty();
    }

    /**
     * The methods of the routes of this path (the CBOR paths and the JSON door's take POST), sorted;
     * empty if it is no route's path.
     */
    private Set<String> methodsOf(String path) {
        Set<String> methods = new TreeSet<>();
        if (Operation.byCborPath(path).isPresent()) {
            methods.add("POST");
        }
        if (path.equals(Routes.JSON_DOOR.path())) {
            methods.add(Routes.JSON_DOOR.method());
        }
        String[] segments = path.split("/", -1);
        for (ApiRoute r : routes) {
            if (match(r, r.method(), segments) != null) {
                methods.add(r.method());
            }
        }
        return methods;
    }

    /** The path parameters if the route takes this method and path, else null. */
    private static Map<String, String> match(ApiRoute r, String method, String[] segments) {
        if (!r.method().equals(method) || r.segments().length != segments.length) {
            return null;
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < segments.length; i++) {
            String template = r.segments()[i];
            if (template.startsWith("{") && template.endsWith("}")) {
                if (segments[i].isEmpty()) {
                    return null;
                }
                // decoded here, once: the handler takes path parameters as API Gateway hands them over
                parameters.put(template.substring(1, template.length() - 1), PercentEncoding.segment(segments[i]));
            } else if (!template.equals(segments[i])) {
                return null;
            }
        }
        return parameters;
    }

    /** The query's parameters, each name and value decoded once. */
    static Map<String, String> queryParameters(String rawQuery) {
        Map<String, String> query = new LinkedHashMap<>();
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&")) {
                int eq = pair.indexOf('=');
                String k = PercentEncoding.queryPart(eq < 0 ? pair : pair.substring(0, eq));
                String v = eq < 0 ? "" : PercentEncoding.queryPart(pair.substring(eq + 1));
                query.merge(k, v, (a, b) -> a + "," + b); // API Gateway joins repeated parameters with commas
            }
        }
        return query;
    }

    private static APIGatewayV2HTTPEvent event(Exchange exchange, Match match, Principal principal,
            Map<String, String> query) {
        String rawQuery = exchange.query();
        Map<String, String> headers = new LinkedHashMap<>();
        exchange.headers().forEach((k, v) -> headers.put(k.toLowerCase(), String.join(",", v)));
        var iam = APIGatewayV2HTTPEvent.RequestContext.IAM.builder()
                .withAccessKey(principal.accessKeyId())
                .withAccountId(ACCOUNT_ID)
                .withUserArn(principal.callerArn())
                .withUserId(principal.userId())
                .build();
        var context = APIGatewayV2HTTPEvent.RequestContext.builder()
                .withRequestId(UUID.randomUUID().toString())
                .withRouteKey(match.routeKey())
                .withAccountId(ACCOUNT_ID)
                .withStage("$default")
                .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder()
                        .withMethod(exchange.method()).withPath(exchange.path()).withProtocol("HTTP/1.1")
                        .withSourceIp("127.0.0.1").build())
                .withAuthorizer(APIGatewayV2HTTPEvent.RequestContext.Authorizer.builder().withIam(iam).build())
                .build();
        byte[] body = exchange.body();
        // API Gateway hands over text as text, anything else (a CBOR body, bytes that are not UTF-8) base64.
        boolean base64 = match.binary() || !isUtf8(body);
        return APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0")
                .withRouteKey(match.routeKey())
                .withRawPath(exchange.path())
                .withRawQueryString(rawQuery == null ? "" : rawQuery)
                .withHeaders(headers)
                .withQueryStringParameters(query.isEmpty() ? null : query)
                .withPathParameters(match.pathParameters().isEmpty() ? null : match.pathParameters())
                .withBody(body.length == 0 ? null
                        : base64 ? Base64.getEncoder().encodeToString(body) : new String(body, StandardCharsets.UTF_8))
                .withIsBase64Encoded(base64 && body.length > 0)
                .withRequestContext(context)
                .build();
    }

    private static boolean isUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
