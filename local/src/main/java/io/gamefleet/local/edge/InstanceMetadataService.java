package io.gamefleet.local.edge;

import io.gamefleet.local.fleet.InstanceMetadata;
import io.gamefleet.local.fleet.InstanceMetadata.Answer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Each simulated instance's instance metadata service (IMDSv2), at
 * {@code /_local/imds/<instanceId>/<secret>}: the agent of that instance is given
 * {@code http://127.0.0.1:<port>/_local/imds/<instanceId>/<secret>} as its metadata endpoint, and
 * every path below it is EC2's ({@code /latest/api/token}, {@code /latest/meta-data/...}). Like EC2's,
 * it takes no SigV4; the endpoint's secret ({@link InstanceMetadata#secretOf}), which a game server is
 * not given, keeps the instance's metadata and keys its agent's, and the IMDSv2 token is its guard
 * besides. The access log shows the secret as {@code *}.
 */
final class InstanceMetadataService implements EdgeService {
    static final String PREFIX = "/_local/imds/";

    private final InstanceMetadata metadata;

    InstanceMetadataService(InstanceMetadata metadata) {
        this.metadata = metadata;
    }

    @Override
    public boolean handles(Exchange exchange) {
        return exchange.path().startsWith(PREFIX) && exchange.path().indexOf('/', PREFIX.length()) > PREFIX.length();
    }

    @Override
    public void serve(Exchange exchange) throws IOException {
        String rest = exchange.path().substring(PREFIX.length());
        int slash = rest.indexOf('/');
        String instanceId = PercentEncoding.segment(rest.substring(0, slash));
        String below = rest.substring(slash + 1);
        int end = below.indexOf('/');
        String secret = end < 0 ? below : below.substring(0, end);
        Answer answer = metadata.serve(instanceId, secret, exchange.method(), end < 0 ? "/" : below.substring(end),
                exchange.headers().getFirst(InstanceMetadata.TOKEN_TTL_HEADER),
                exchange.headers().getFirst(InstanceMetadata.TOKEN_HEADER));
        Map<String, String> headers = new LinkedHashMap<>(Map.of("Content-Type", answer.contentType()));
        answer.tokenTtlSeconds().ifPresent(ttl -> headers.put(InstanceMetadata.TOKEN_TTL_HEADER, Long.toString(ttl)));
        exchange.respond(answer.status(), headers, answer.body().getBytes(StandardCharsets.UTF_8));
    }

    /** A path as the access log writes it: an instance's endpoint secret as {@code *}. */
    static String logged(String path) {
        return secretHidden(path, PREFIX);
    }

    /** The path with the segment after {@code prefix}'s next one (an endpoint's secret) as {@code *}. */
    static String secretHidden(String path, String prefix) {
        if (!path.startsWith(prefix)) {
            return path;
        }
        int secret = path.indexOf('/', prefix.length());
        if (secret < 0) {
            return path;
        }
        int end = path.indexOf('/', secret + 1);
        return path.substring(0, secret + 1) + "*" + (end < 0 ? "" : path.substring(end));
    }
}
