package io.gamefleet.adapters.dynamodb.client;

import java.net.URISyntaxException;
import java.net.URL;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.InterceptorContext;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;

/**
 * One call's SDK interceptors (made only when a client has some: tests and benchmarks count,
 * hold or change calls with them), run at the SDK's points: {@code beforeExecution} then {@code
 * modifyRequest} of each, {@code beforeTransmission} before each attempt with the signed request,
 * {@code modifyResponse} then {@code afterExecution} of each. The execution attributes hold the
 * service name ({@code DynamoDb}) and the operation's name.
 */
final class Interception {
    private final List<ExecutionInterceptor> interceptors;
    private final ExecutionAttributes attributes;
    private InterceptorContext context;

    Interception(List<ExecutionInterceptor> interceptors, String operation) {
        this.interceptors = interceptors;
        this.attributes = new ExecutionAttributes();
        attributes.putAttribute(SdkExecutionAttribute.SERVICE_NAME, "DynamoDb");
        attributes.putAttribute(SdkExecutionAttribute.OPERATION_NAME, operation);
    }

    SdkRequest beforeExecution(SdkRequest request) {
        context = InterceptorContext.builder().request(request).build();
        interceptors.forEach(i -> i.beforeExecution(context, attributes));
        SdkRequest modified = request;
        for (ExecutionInterceptor i : interceptors) {
            modified = i.modifyRequest(context, attributes);
            context = context.toBuilder().request(modified).build();
        }
        return modified;
    }

    void beforeTransmission(URL url, Map<String, String> headers, String authorization, byte[] payload) {
        SdkHttpFullRequest.Builder http;
        try {
            http = SdkHttpFullRequest.builder().uri(url.toURI()).method(SdkHttpMethod.POST);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        headers.forEach(http::putHeader);
        http.putHeader("Authorization", authorization);
        context = context.toBuilder().httpRequest(http.build()).requestBody(RequestBody.fromBytes(payload)).build();
        interceptors.forEach(i -> i.beforeTransmission(context, attributes));
    }

    SdkResponse afterExecution(SdkResponse response) {
        context = context.toBuilder().response(response).build();
        SdkResponse modified = response;
        for (ExecutionInterceptor i : interceptors) {
            modified = i.modifyResponse(context, attributes);
            context = context.toBuilder().response(modified).build();
        }
        interceptors.forEach(i -> i.afterExecution(context, attributes));
        return modified;
    }
}
