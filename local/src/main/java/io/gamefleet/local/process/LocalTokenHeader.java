package io.gamefleet.local.process;

import io.gamefleet.local.edge.EdgeServer;
import java.net.URI;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * Puts this run's token on every request an SDK client sends to one of the profile's own endpoints
 * that refuse calls without it: its Step Functions sidecar ({@code sidecar.mjs}), and the edge's
 * Lambda Invoke path (the functions' standby requests); requests to anything else (DynamoDB, a Step
 * Functions endpoint of the user's) go out without it.
 */
public final class LocalTokenHeader implements ExecutionInterceptor {
    private final URI endpoint;
    private final String token;

    public LocalTokenHeader(URI endpoint, String token) {
        this.endpoint = endpoint;
        this.token = token;
    }

    @Override
    public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        SdkHttpRequest request = context.httpRequest();
        boolean toEndpoint = request.host().equals(endpoint.getHost()) && request.port() == endpoint.getPort();
        return toEndpoint ? request.toBuilder().putHeader(EdgeServer.LOCAL_TOKEN_HEADER, token).build() : request;
    }
}
