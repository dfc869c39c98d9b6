package io.gamefleet.local.edge;

import static io.gamefleet.catalog.LocalAccount.ACCOUNT_ID;
import static io.gamefleet.catalog.LocalAccount.REGION;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.gamefleet.api.ApiHandler;
import io.gamefleet.catalog.Route;
import io.gamefleet.local.edge.SigV4Verifier.Result;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The API Gateway HTTP API: the catalog's routes with IAM auth, that is SigV4 verification and the
 * route's roles (403 before any handler runs), each calling its function with a payload 2.0 event.
 */
final class ApiGatewayService implements EdgeService {
    private record ApiRoute(Route route, String[] segments, ApiHandler handler) {}

    private record Match(ApiRoute route, Map<String, String> pathParameters) {}

    private final List<ApiRoute> routes;
    private final Map<String, Principal> principals;
    private final SigV4Verifier verifier;

    ApiGatewayService(Map<Route, ApiHandler> routes, List<Principal> principals, Clock clock) {
        this.routes = routes.entrySet().stream()
                .map(r -> new ApiRoute(r.getKey(), r.getKey().path().split("/", -1), r.getValue())).toList();
        // A later principal of the same access key wins: a --principals file may replace the built-in admin.
        this.principals = principals.stream().collect(Collectors.toMap(Principal::accessKeyId, Function.identity(),
                (a, b) -> b));
        this.verifier = new SigV4Verifier(REGION, "execute-api",
                key -> Optional.ofNullable(this.principals.get(key)).map(Principal::secretAccessKey), clock);
    }

    @Override
    public boolean handles(Exchange exchange) {
        return match(exchange).isPresent();
    }

    @Override
    public void serve(Exchange exchange) throws IOException {
        Match match = match(exchange).orElseThrow();
        Route route = match.route().route();
        Result result = verifier.verify(exchange.method(), exchange.path(), exchange.query(), exchange.headers(),
                exchange.body());
        if (result instanceof Result.Rejected rejected) {
            exchange.respondError(403, "UnauthorizedException", "request signature rejected: " + rejected.reason());
            return;
        }
        Principal principal = principals.get(((Result.Accepted) result).accessKeyId());
        if (!route.roles().contains(principal.role())) {
            exchange.respondError(403, "UnauthorizedException", "a " + principal.role() + " caller may not call "
                    + route.operation());
            return;
        }
        APIGatewayV2HTTPResponse response = match.route().handler()
                .handleRequest(event(exchange, route, match.pathParameters(), principal), null);
        exchange.respond(response.getStatusCode(), response.getBody());
    }

    private Optional<Match> match(Exchange exchange) {
        String[] segments = exchange.path().split("/", -1);
        for (ApiRoute r : routes) {
            Map<String, String> parameters = match(r, exchange.method(), segments);
            if (parameters != null) {
                return Optional.of(new Match(r, parameters));
            }
        }
        return Optional.empty();
    }

    /** The path parameters if the route takes this method and path, else null. */
    private static Map<String, String> match(ApiRoute r, String method, String[] segments) {
        if (!r.route().method().equals(method) || r.segments().length != segments.length) {
            return null;
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < segments.length; i++) {
            String template = r.segments()[i];
            if (template.startsWith("{") && template.endsWith("}")) {
                if (segments[i].isEmpty()) {
                    return null;
                }
                parameters.put(template.substring(1, template.length() - 1),
                        URLDecoder.decode(segments[i], StandardCharsets.UTF_8));
            } else if (!template.equals(segments[i])) {
                return null;
            }
        }
        return parameters;
    }

    private static APIGatewayV2HTTPEvent event(Exchange exchange, Route route, Map<String, String> pathParameters,
            Principal principal) {
        String rawQuery = exchange.query();
        Map<String, String> headers = new LinkedHashMap<>();
        exchange.headers().forEach((k, v) -> headers.put(k.toLowerCase(), String.join(",", v)));
        Map<String, String> query = new LinkedHashMap<>();
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&")) {
                int eq = pair.indexOf('=');
                String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                query.merge(k, v, (a, b) -> a + "," + b); // API Gateway joins repeated parameters with commas
            }
        }
        var iam = APIGatewayV2HTTPEvent.RequestContext.IAM.builder()
                .withAccessKey(principal.accessKeyId())
                .withAccountId(ACCOUNT_ID)
                .withUserArn(principal.callerArn(ACCOUNT_ID))
                .build();
        var context = APIGatewayV2HTTPEvent.RequestContext.builder()
                .withRouteKey(route.method() + " " + route.path())
                .withAccountId(ACCOUNT_ID)
                .withStage("$default")
                .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder()
                        .withMethod(route.method()).withPath(exchange.path()).withProtocol("HTTP/1.1")
                        .withSourceIp("127.0.0.1").build())
                .withAuthorizer(APIGatewayV2HTTPEvent.RequestContext.Authorizer.builder().withIam(iam).build())
                .build();
        byte[] body = exchange.body();
        return APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0")
                .withRouteKey(route.method() + " " + route.path())
                .withRawPath(exchange.path())
                .withRawQueryString(rawQuery == null ? "" : rawQuery)
                .withHeaders(headers)
                .withQueryStringParameters(query.isEmpty() ? null : query)
                .withPathParameters(pathParameters.isEmpty() ? null : pathParameters)
                .withBody(body.length == 0 ? null : new String(body, StandardCharsets.UTF_8))
                .withIsBase64Encoded(false)
                .withRequestContext(context)
                .build();
    }
}
