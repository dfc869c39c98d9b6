package io.gamefleet.local.edge;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * Keeps what runs in the developer's browser out of the profile. A request must name the edge
 * itself in {@code Host} (so a page whose own name was made to resolve to 127.0.0.1, DNS
 * rebinding, is refused), and any {@code Origin} must be the edge's own (so a page elsewhere,
 * which the browser lets send simple POSTs, is refused); only a page of another loopback port,
 * another local edge's console, may call the API's own paths ({@link LoopbackCors}). The
 * unsigned paths that change state, Lambda's Invoke path and the state-changing {@code /_local/*}
 * paths, and an instance's keys
 * ({@code GET /_local/instances/<id>/credentials}), also need this run's token
 * in {@value #TOKEN_HEADER}: a caller must have read it from the profile (its banner, or its
 * wiring for in-process services such as a console). Each refusal is a 403 with the JSON error body.
 */
final class LocalGuard extends Handler.Wrapper {
    static final String TOKEN_HEADER = "X-Gamefleet-Local-Token";
    private static final String INVOKE_PATHS = "/2015-03-31/";
    private static final String LOCAL_PATHS = "/_local/";

    private final byte[] token;

    LocalGuard(String token, Handler handler) {
        super(handler);
        this.token = token.getBytes(StandardCharsets.UTF_8);
    }

    /** A new token: 32 random bytes, base64url. */
    static String newToken() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        int port = ((InetSocketAddress) request.getConnectionMetaData().getLocalSocketAddress()).getPort();
        List<String> own = List.of("127.0.0.1:" + port, "localhost:" + port);
        String host = request.getHeaders().get(HttpHeader.HOST);
        if (host == null || !own.contains(host.toLowerCase(java.util.Locale.ROOT))) {
            return refuse(response, callback, "the Host header must name this edge, " + own.get(0) + " (or "
                    + own.get(1) + "), not " + (host == null ? "nothing" : HttpEdge.printable(host)));
        }
        String origin = request.getHeaders().get(HttpHeader.ORIGIN);
        Response answer = response;
        if (origin != null && !own.stream().anyMatch(o -> origin.equalsIgnoreCase("http://" + o))) {
            if (!LoopbackCors.admits(origin, request.getHttpURI().getPath())) {
                return refuse(response, callback, "requests from pages of another origin are refused: "
                        + HttpEdge.printable(origin) + " is not http://" + own.get(0));
            }
            if (LoopbackCors.isPreflight(request.getMethod(), request.getHeaders())) {
                LoopbackCors.allowPreflight(origin, request.getHeaders(), response.getHeaders());
                response.setStatus(HttpStatus.NO_CONTENT_204);
                response.write(true, BufferUtil.EMPTY_BUFFER, callback);
                return true;
            }
            answer = LoopbackCors.allowing(origin, request, response);
        }
        if (needsToken(request) && !tokenMatches(request.getHeaders().get(TOKEN_HEADER))) {
            return refuse(response, callback, request.getMethod() + " " + request.getHttpURI().getPath()
                    + " needs this run's token in the " + TOKEN_HEADER + " header (the profile prints it at start, as"
                    + " \"local token: ...\"; --local-token sets it)");
        }
        return super.handle(request, answer, callback);
    }

    private static boolean needsToken(Request request) {
        String path = request.getHttpURI().getPath();
        String method = request.getMethod();
        // An instance's metadata (its IMDSv2 token PUT included) changes no state of the profile: its
        // endpoint secret and IMDSv2 token are its guards, and the agents are given no run token. A
        // task's endpoints (its protection PUT included) are its containers', its secret their guard.
        return path.startsWith(INVOKE_PATHS) || InstancesService.isCredentials(path)
                || path.startsWith(LOCAL_PATHS) && !path.startsWith(InstanceMetadataService.PREFIX)
                        && !path.startsWith(TaskEndpointsService.PREFIX)
                        && !method.equals("GET") && !method.equals("HEAD");
    }

    private boolean tokenMatches(String given) {
        return given != null && MessageDigest.isEqual(token, given.getBytes(StandardCharsets.UTF_8));
    }

    private static boolean refuse(Response response, Callback callback, String message) {
        JsonErrorHandler.refuse(response, callback, HttpStatus.FORBIDDEN_403, "UnauthorizedException", message);
        return true;
    }
}
