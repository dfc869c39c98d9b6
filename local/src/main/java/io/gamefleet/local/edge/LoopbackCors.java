package io.gamefleet.local.edge;

import io.gamefleet.catalog.Operation;
import io.gamefleet.catalog.Routes;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * CORS for the console of another local edge (another region's profile, on another loopback
 * port): a console calls each peered region's API from its own origin, as a console calls a
 * stage's API in AWS where the stage's {@code consoleOrigins} admit it. Only for the API's own
 * paths (its routes, CBOR paths and JSON door), whose requests the edge verifies as signed
 * further on; never for {@code /console} (the admin's keys), {@code /_local/*}, Lambda's Invoke
 * path or the push channel, which keep taking their own origin only ({@link LocalGuard}).
 */
final class LoopbackCors {
    private static final Pattern LOOPBACK_ORIGIN = Pattern.compile("http://(127\\.0\\.0\\.1|localhost):\\d{1,5}",
            Pattern.CASE_INSENSITIVE);
    /** Each REST route's path, its {parameters} as one segment each. */
    private static final List<Pattern> ROUTE_PATHS = Stream.concat(Routes.ALL.stream().map(r -> r.path()),
                    Routes.EXTENSIONS.stream().map(r -> r.path()))
            .map(path -> Pattern.compile(path.replaceAll("\\{[^/]+}", "[^/]+"))).toList();
    private static final String MAX_AGE_SECONDS = "3600";

    private LoopbackCors() {}

    /** Whether a page of {@code origin} (not the edge's own) may call {@code path}. */
    static boolean admits(String origin, String path) {
        return LOOPBACK_ORIGIN.matcher(origin).matches() && isApiPath(path);
    }

    private static boolean isApiPath(String path) {
        return path.equals(Routes.JSON_DOOR.path()) || Operation.byCborPath(path).isPresent()
                || ROUTE_PATHS.stream().anyMatch(p -> p.matcher(path).matches());
    }

    /** A preflight: OPTIONS asking for a method, which the edge answers itself, changing nothing. */
    static boolean isPreflight(String method, HttpFields headers) {
        return method.equals("OPTIONS") && headers.get(HttpHeader.ACCESS_CONTROL_REQUEST_METHOD) != null;
    }

    /**
     * The preflight's answer: the method and headers asked for (the request itself must still be
     * signed), for an hour.
     */
    static void allowPreflight(String origin, HttpFields requested, HttpFields.Mutable answer) {
        allow(origin, answer);
        answer.put(HttpHeader.ACCESS_CONTROL_ALLOW_METHODS, requested.get(HttpHeader.ACCESS_CONTROL_REQUEST_METHOD));
        String headers = requested.get(HttpHeader.ACCESS_CONTROL_REQUEST_HEADERS);
        if (headers != null) {
            answer.put(HttpHeader.ACCESS_CONTROL_ALLOW_HEADERS, headers);
        }
        answer.put(HttpHeader.ACCESS_CONTROL_MAX_AGE, MAX_AGE_SECONDS);
    }

    /**
     * The response, letting that page read it: the header goes on as the answer is written, so an
     * error answer that clears the headers first ({@link Exchange#respondError}) has it too.
     */
    static Response allowing(String origin, Request request, Response response) {
        return new Response.Wrapper(request, response) {
            @Override
            public void write(boolean last, ByteBuffer content, Callback callback) {
                if (!isCommitted()) {
                    allow(origin, getHeaders());
                }
                super.write(last, content, callback);
            }
        };
    }

    private static void allow(String origin, HttpFields.Mutable answer) {
        answer.put(HttpHeader.ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        answer.put(HttpHeader.VARY, "Origin");
    }
}
