package io.gamefleet.infra;

import io.gamefleet.catalog.ExtensionRoute;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.ManagedPolicy;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.constructs.Construct;

/**
 * A managed policy per caller {@link Role}: execute-api:Invoke on exactly the REST routes and CBOR
 * paths whose catalog roles include it (Gamefleet's own routes too), and on the JSON door, and a Deny
 * of Gamefleet's own routes it does not have, which its wildcards would otherwise reach; for the roles that may open the
 * push channel ({@link PushChannel#CONNECTING_ROLES}), on its {@code $connect}. Attached to the role's
 * {@link CallerRoles caller role}; deployers may attach them to their own callers' roles or users
 * too (the JSON door then refuses those callers: it admits only the caller roles' sessions).
 */
final class CallerPolicies extends Construct {
    CallerPolicies(Construct scope, String id, Api api, PushApi push, CallerRoles callerRoles) {
        super(scope, id);
        for (Role role : Role.values()) {
            List<String> routes = new ArrayList<>();
            for (Route route : Routes.ALL) {
                if (route.roles().contains(role)) {
                    routes.add(api.arnOf(route));
                    routes.add(api.cborArnOf(route));
                }
            }
            for (ExtensionRoute extension : Routes.EXTENSIONS) {
                if (extension.roles().contains(role)) {
                    routes.add(api.arnOf(extension));
                }
            }
            // Every role may knock at the JSON door, which checks the operation against the role.
            routes.add(api.jsonDoorArn());
            String title = title(role);
            List<PolicyStatement> statements = new ArrayList<>(List.of(PolicyStatement.Builder.create()
                    .sid("Invoke" + title + "Routes")
                    .effect(Effect.ALLOW)
                    .actions(List.of("execute-api:Invoke"))
                    .resources(routes)
                    .build()));
            // IAM's '*' matches '/' too: a route of another role's under a path this role may take
            // (DescribeGameServerGroup's GET /game-server-groups/?* takes every GET below it) is refused by name.
            List<String> others = Routes.EXTENSIONS.stream().filter(e -> !e.roles().contains(role)).map(api::denyArnOf)
                    .toList();
            if (!others.isEmpty()) {
                statements.add(PolicyStatement.Builder.create()
                        .sid("DenyOtherRolesRoutes")
                        .effect(Effect.DENY)
                        .actions(List.of("execute-api:Invoke"))
                        .resources(others)
                        .build());
            }
            if (PushChannel.CONNECTING_ROLES.contains(role)) {
                // $connect only: messages and $disconnect ride the connection it authorized.
                statements.add(PolicyStatement.Builder.create()
                        .sid("ConnectPushChannel")
                        .effect(Effect.ALLOW)
                        .actions(List.of("execute-api:Invoke"))
                        .resources(List.of(push.connectArn()))
                        .build());
            }
            ManagedPolicy policy = ManagedPolicy.Builder.create(this, title + "CallerPolicy")
                    .description("Gamefleet " + role + " callers: execute-api:Invoke on their " + routes.size()
                            + " routes of API " + Stack.of(this).getStackName()
                            + (PushChannel.CONNECTING_ROLES.contains(role) ? " and on the push channel's $connect" : ""))
                    .statements(statements)
                    .build();
            callerRoles.role(role).addManagedPolicy(policy);
            NagRules.callerPolicy(policy, routes);
            CfnOutput.Builder.create(this, title + "PolicyArn")
                    .value(policy.getManagedPolicyArn())
                    .description("Attach to the IAM roles or users of " + role + " callers")
                    .build();
        }
    }

    /** GAME_SERVER as GameServer. */
    static String title(Role role) {
        StringBuilder out = new StringBuilder();
        for (String word : role.name().toLowerCase(Locale.ROOT).split("_")) {
            out.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return out.toString();
    }
}
