package io.gamefleet.local.process;

import io.gamefleet.local.edge.EdgeServer;
import java.net.URI;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * Puts this run's token on every request an SDK client sends to the profile's own Step Functions
 * sidecar, which refuses calls without it ({@code sidecar.mjs}); requests to anything else (DynamoDB,
 * a Step Functions endpoint of the user's) go out without it.
 */
public final class SidecarToken implements ExecutionInterceptor {
    private final URI sidecar;
    private final String token;

    public SidecarToken(URI sidecar, String token) {
        this.sidecar = sidecar;
        this.token = token;
    }

    @Override
    public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        SdkHttpRequest request = context.httpRequest();
        boolean toSidecar = request.host().equals(sidecar.getHost()) && request.port() == sidecar.getPort();
        return toSidecar ? request.toBuilder().putHeader(EdgeServer.LOCAL_TOKEN_HEADER, token).build() : request;
    }
}
