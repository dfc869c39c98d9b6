package io.gamefleet.wiring;

import com.amazonaws.xray.interceptors.TracingInterceptor;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * X-Ray's SDK interceptor, in a class of its own so that only a traced deployment loads X-Ray's
 * classes (the JVM loads them when this class first runs, not when {@link AwsServices} does).
 */
final class XRayTracing {
    private XRayTracing() {}

    static ExecutionInterceptor interceptor() {
        return new TracingInterceptor();
    }
}
