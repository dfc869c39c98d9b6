package io.gamefleet.local.edge;

import io.gamefleet.local.fleet.InstanceMetadata;
import io.gamefleet.local.fleet.InstanceMetadata.Answer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Each simulated instance's instance metadata service (IMDSv2), at
 * {@code /_local/imds/<instanceId>}: the agent of that instance is given
 * {@code http://127.0.0.1:<port>/_local/imds/<instanceId>} as its metadata endpoint, and every path
 * below it is EC2's ({@code /latest/api/token}, {@code /latest/meta-data/...}). Like EC2's, it
 * takes no SigV4: the IMDSv2 token is its guard.
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
        Answer answer = metadata.serve(PercentEncoding.segment(rest.substring(0, slash)), exchange.method(),
                rest.substring(slash), exchange.headers().getFirst(InstanceMetadata.TOKEN_TTL_HEADER),
                exchange.headers().getFirst(InstanceMetadata.TOKEN_HEADER));
        Map<String, String> headers = new LinkedHashMap<>(Map.of("Content-Type", answer.contentType()));
        answer.tokenTtlSeconds().ifPresent(ttl -> headers.put(InstanceMetadata.TOKEN_TTL_HEADER, Long.toString(ttl)));
        exchange.respond(answer.status(), headers, answer.body().getBytes(StandardCharsets.UTF_8));
    }
}
