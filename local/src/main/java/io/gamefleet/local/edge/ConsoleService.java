package io.gamefleet.local.edge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The console ({@code console/}, built by Vite into {@code console/dist}) at {@code /console/}: its
 * files, and {@code /console/config.json}, which hands the page the local admin's keys, so that it
 * calls the API at its own origin as any signed client does, and this run's local token, for the
 * {@code /_local/*} paths it posts to. Only GET; no file outside the folder. Behind the edge's
 * {@link LocalGuard}, like every service: a page of another origin cannot read the config. Every
 * answer carries {@link #SECURITY_HEADERS}: the page runs only its own files and talks only to its
 * own origin and other local edges, the APIs of the regions it is peered with (Content-Security-Policy,
 * and {@link LoopbackCors} on their side), no page of another origin may frame it (clickjacking:
 * {@code frame-ancestors 'none'}, and X-Frame-Options for browsers before CSP 2), and no file is read
 * as another type than it is served as.
 */
final class ConsoleService implements EdgeService {
    static final String PREFIX = "/console";
    private static final String CONFIG = PREFIX + "/config.json";
    private static final Map<String, String> TYPES = Map.of("html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8", "css", "text/css; charset=utf-8", "svg", "image/svg+xml",
            "json", "application/json", "png", "image/png", "ico", "image/x-icon", "map", "application/json");

    /** What every answer of the console carries. */
    static final Map<String, String> SECURITY_HEADERS = Map.of(
            "Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
                    + " connect-src 'self' http://127.0.0.1:* http://localhost:*; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
            "X-Frame-Options", "DENY",
            "X-Content-Type-Options", "nosniff",
            "Referrer-Policy", "no-referrer");

    private final Path dist;
    private final Principal admin;
    private final String localToken;
    private final String region;

    /** {@code region}: the profile's, which the page signs for. */
    ConsoleService(Path dist, Principal admin, String localToken, String region) {
        this.dist = dist.toAbsolutePath().normalize();
        this.admin = admin;
        this.localToken = localToken;
        this.region = region;
    }

    @Override
    public boolean handles(Exchange exchange) {
        return exchange.method().equals("GET")
                && (exchange.path().equals(PREFIX) || exchange.path().startsWith(PREFIX + "/"));
    }

    @Override
    public void serve(Exchange exchange) throws IOException {
        Answer answer = answer(exchange.path());
        exchange.respond(answer.status(), answer.headers(), answer.body());
    }

    /** What {@code GET path} is answered with: status, headers, body. */
    record Answer(int status, Map<String, String> headers, byte[] body) {
        private static Answer json(int status, Map<String, String> headers, Object body) throws IOException {
            Map<String, String> all = new LinkedHashMap<>(headers);
            all.put("Content-Type", "application/json");
            return new Answer(status, all, Exchange.JSON.writeValueAsBytes(body));
        }

        /** An error as every other refusal of the edge has it. */
        private static Answer error(String message) throws IOException {
            return json(404, Map.of(), Map.of("__type", "NotFoundException", "Message", message));
        }
    }

    /** The answer to {@code GET path}, a path under {@link #PREFIX} still percent-encoded, with {@link #SECURITY_HEADERS}. */
    Answer answer(String path) throws IOException {
        Answer content = content(path);
        Map<String, String> headers = new LinkedHashMap<>(content.headers());
        headers.putAll(SECURITY_HEADERS);
        return new Answer(content.status(), headers, content.body());
    }

    private Answer content(String path) throws IOException {
        if (path.equals(PREFIX)) {
            return Answer.json(302, Map.of("Location", PREFIX + "/"), Map.of());
        }
        if (path.equals(CONFIG)) {
            Map<String, Object> config = new LinkedHashMap<>();
            config.put("region", region);
            config.put("accessKeyId", admin.accessKeyId());
            config.put("secretAccessKey", admin.secretAccessKey());
            config.put("local", true);
            config.put("localToken", localToken);
            return Answer.json(200, Map.of("Cache-Control", "no-store"), config);
        }
        String relative = PercentEncoding.segment(path.substring(PREFIX.length() + 1));
        Path file = dist.resolve(relative.isEmpty() ? "index.html" : relative).normalize();
        if (!file.startsWith(dist) || !Files.isRegularFile(file)) {
            return Answer.error(Files.isRegularFile(dist.resolve("index.html"))
                    ? "the console has no file " + relative
                    : "the console is not built: " + dist + " has no index.html (run: cd console && npm ci && npm run build)");
        }
        String name = file.getFileName().toString();
        String type = TYPES.getOrDefault(name.substring(name.lastIndexOf('.') + 1), "application/octet-stream");
        // Vite names each asset by its content's hash: those never change; index.html always may.
        String cache = relative.startsWith("assets/") ? "public, max-age=31536000, immutable" : "no-cache";
        return new Answer(200, Map.of("Content-Type", type, "Cache-Control", cache), Files.readAllBytes(file));
    }
}
