package io.gamefleet.local.bench.coldstart;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.util.Map;

/**
 * The body of a fresh JVM in the cold-start benchmark: makes the handler class named in
 * {@code args[0]} as Lambda does (its no-argument constructor) and hands it one API Gateway
 * (payload 2.0) event, then prints {@code answered <status>}. Run on a class path of the Lambda
 * jar (or the textbook's jars) and this package's classes alone; it uses nothing else.
 * Then it prints {@code made <nanoTime> <CPU nanoseconds>}: when the handler was made.
 * Arguments: handler class, the route's path parameters as {@code name=value,...}, the body,
 * the caller's ARN and its userId.
 */
public final class FirstRequest {
    private FirstRequest() {}

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> handler =
                (RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>) Class.forName(args[0])
                        .getConstructor().newInstance();
        long madeAt = System.nanoTime();
        long madeCpu = ProcessHandle.current().info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(-1L);
        Map<String, String> path = new java.util.HashMap<>();
        for (String pair : args[1].split(",")) {
            int eq = pair.indexOf('=');
            path.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        APIGatewayV2HTTPEvent event = APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0")
                .withPathParameters(path)
                .withBody(args[2])
                .withIsBase64Encoded(false)
                .withHeaders(Map.of("content-type", "application/json"))
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withAuthorizer(APIGatewayV2HTTPEvent.RequestContext.Authorizer.builder()
                                .withIam(APIGatewayV2HTTPEvent.RequestContext.IAM.builder()
                                        .withUserArn(args[3]).withUserId(args[4])
                                        .withAccountId(args[3].split(":")[4]).build())
                                .build())
                        .build())
                .build();
        APIGatewayV2HTTPResponse response = handler.handleRequest(event, null);
        System.out.println("answered " + response.getStatusCode() + " " + response.getBody());
        // After the answer, so that it times nothing of its own: when the handler was made (the
        // monotonic clock, which the benchmark's JVM shares) and the CPU time used by then.
        System.out.println("made " + madeAt + " " + madeCpu);
        System.out.flush();
        System.exit(0);
    }
}
