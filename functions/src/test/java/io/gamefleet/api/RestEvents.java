package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.catalog.Role;
import io.gamefleet.json.Json;
import java.util.Map;

/** API Gateway (payload 2.0) events of the REST routes, as the functions' tests send them. */
public final class RestEvents {
    private RestEvents() {}

    static APIGatewayV2HTTPEvent event(String method, String path, Map<String, String> pathParameters,
            Map<String, String> query, String body) {
        return event(method, path, pathParameters, query, body, null);
    }

    /** {@code callerArn}: the IAM caller API Gateway verified, or null for none. */
    static APIGatewayV2HTTPEvent event(String method, String path, Map<String, String> pathParameters,
            Map<String, String> query, String body, String callerArn) {
        var context = APIGatewayV2HTTPEvent.RequestContext.builder()
                .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder().withMethod(method).withPath(path).build());
        if (callerArn != null) {
            context.withAuthorizer(APIGatewayV2HTTPEvent.RequestContext.Authorizer.builder()
                    .withIam(APIGatewayV2HTTPEvent.RequestContext.IAM.builder().withUserArn(callerArn)
                            .withUserId(userId(callerArn)).withAccountId("000000000000").build())
                    .build());
        }
        return APIGatewayV2HTTPEvent.builder().withVersion("2.0").withRawPath(path)
                .withPathParameters(pathParameters == null || pathParameters.isEmpty() ? null : pathParameters)
                .withQueryStringParameters(query).withBody(body).withIsBase64Encoded(false)
                .withRequestContext(context.build()).build();
    }

    /** A session named {@code name} of the local account's role, as API Gateway reports its caller ARN. */
    public static String session(Role role, String name) {
        String roleArn = LocalAccount.roleArn(role);
        return "arn:aws:sts::" + LocalAccount.ACCOUNT_ID + ":assumed-role/" + roleArn.substring(roleArn.lastIndexOf('/') + 1)
                + "/" + name;
    }

    /**
     * What API Gateway reports as the userId of a session of one of the local account's caller
     * roles ({@code <role id>:<session>}); null for anyone else.
     */
    public static String userId(String callerArn) {
        String[] parts = callerArn.split("/");
        for (Role role : Role.values()) {
            String roleArn = LocalAccount.roleArn(role);
            if (parts.length == 3 && parts[0].endsWith(":assumed-role")
                    && parts[1].equals(roleArn.substring(roleArn.lastIndexOf('/') + 1))) {
                return LocalAccount.roleId(role) + ":" + parts[2];
            }
        }
        return null;
    }

    /** The body of a 200 response; fails with the body otherwise. */
    static JsonNode ok(APIGatewayV2HTTPResponse response) {
        if (response.getStatusCode() != 200) {
            throw new AssertionError("expected 200, got " + response.getStatusCode() + ": " + response.getBody());
        }
        return json(response);
    }

    static JsonNode json(APIGatewayV2HTTPResponse response) {
        return Json.readObject(response.getBody());
    }
}
