package io.gamefleet.infra;

import io.gamefleet.catalog.Role;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.AccountPrincipal;
import software.amazon.awscdk.services.iam.AccountRootPrincipal;
import software.amazon.awscdk.services.iam.CfnInstanceProfile;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.FederatedPrincipal;
import software.amazon.awscdk.services.iam.IPrincipal;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.constructs.Construct;

/**
 * An IAM role per caller {@link Role}. The JSON door, which API Gateway can only authorize as a
 * whole, admits sessions of these roles alone and checks each operation against the role itself.
 * ADMIN and MATCHMAKER are assumed by principals of the account that are allowed sts:AssumeRole on
 * them; GAME_SERVER is an EC2 instance role, whose sessions are named after their instance, which
 * binds a game server process to its own instance (and, with containers, the role of the container
 * groups' tasks too, whose sessions ECS names after their task: {@link GameServerContainers}).
 */
final class CallerRoles extends Construct {
    private final Map<Role, software.amazon.awscdk.services.iam.Role> roles = new EnumMap<>(Role.class);
    private final CfnInstanceProfile gameServerProfile;
    private static final String COGNITO_IDENTITY = "cognito-identity.amazonaws.com";
    private software.amazon.awscdk.services.iam.Role viewer;

    CallerRoles(Construct scope, String id) {
        super(scope, id);
        for (Role role : Role.values()) {
            String title = CallerPolicies.title(role);
            IPrincipal trusted = role == Role.GAME_SERVER ? new ServicePrincipal("ec2.amazonaws.com")
                    : new AccountRootPrincipal();
            var iamRole = software.amazon.awscdk.services.iam.Role.Builder.create(this, title + "CallerRole")
                    .assumedBy(trusted)
                    .description("Gamefleet " + role + " callers")
                    .build();
            roles.put(role, iamRole);
            CfnOutput.Builder.create(this, title + "RoleArn").value(iamRole.getRoleArn())
                    .description(role == Role.GAME_SERVER ? "The instance role of game server hosts (instance profile "
                            + "GameServerInstanceProfile)" : "Assume it to call Gamefleet as " + role)
                    .build();
        }
        gameServerProfile = CfnInstanceProfile.Builder.create(this, "GameServerInstanceProfile")
                .roles(List.of(roles.get(Role.GAME_SERVER).getRoleName()))
                .build();
    }

    /**
     * The MATCHMAKER role also admits the peers' functions that call this stage: a trust statement on
     * each peer account's root, conditioned on the caller's role ARN (aws:PrincipalArn) being one of
     * theirs. IAM checks a principal ARN in a trust policy as the policy is written, which a peer's
     * role not created yet would fail; an account's root always exists.
     */
    void admitPeerForwarders(List<PeerRegion> peers) {
        if (peers.isEmpty()) {
            return;
        }
        List<String> forwarders = peers.stream().flatMap(p -> p.forwarderRoleArns().stream()).toList();
        roles.get(Role.MATCHMAKER).getAssumeRolePolicy().addStatements(PolicyStatement.Builder.create()
                .sid("AssumeFromPeerForwarders")
                .effect(Effect.ALLOW)
                .actions(List.of("sts:AssumeRole"))
                .principals(forwarders.stream().map(PeerRegion::accountOf).distinct()
                        .<IPrincipal>map(AccountPrincipal::new).toList())
                .conditions(Map.of("ArnEquals", Map.of("aws:PrincipalArn", forwarders)))
                .build());
    }

    software.amazon.awscdk.services.iam.Role role(Role role) {
        return roles.get(role);
    }

    /**
     * The console's sign-in ({@link ConsoleSite}): the identity pool's authenticated identities may
     * assume the ADMIN role (the admins group's) and a new viewer role (the viewers group's), each
     * only through that pool ({@code aud}) and signed in ({@code amr}); the pool's role mapping
     * picks which.
     */
    software.amazon.awscdk.services.iam.Role admitConsoleSignIn(String identityPoolId) {
        IPrincipal signedIn = consoleSignIn(identityPoolId);
        roles.get(Role.ADMIN).getAssumeRolePolicy().addStatements(PolicyStatement.Builder.create()
                .sid("AssumeFromConsoleSignIn")
                .effect(Effect.ALLOW)
                .actions(List.of("sts:AssumeRoleWithWebIdentity"))
                .principals(List.of(new FederatedPrincipal(COGNITO_IDENTITY)))
                .conditions(signedInConditions(identityPoolId))
                .build());
        viewer = software.amazon.awscdk.services.iam.Role.Builder.create(this, "ConsoleViewerRole")
                .assumedBy(signedIn)
                .description("Gamefleet console viewers: a MATCHMAKER's reads (GET routes), nothing else")
                .build();
        CfnOutput.Builder.create(Stack.of(this), "ConsoleViewerRoleArn").value(viewer.getRoleArn())
                .description("The role of the console's viewers group: a MATCHMAKER's reads, nothing else")
                .build();
        return viewer;
    }

    /** The console viewers' role, where the stack serves a console. */
    Optional<software.amazon.awscdk.services.iam.Role> viewer() {
        return Optional.ofNullable(viewer);
    }

    private static IPrincipal consoleSignIn(String identityPoolId) {
        return new FederatedPrincipal(COGNITO_IDENTITY, signedInConditions(identityPoolId),
                "sts:AssumeRoleWithWebIdentity");
    }

    /** Cognito Identity's own conditions: this pool's identities, signed in (never unauthenticated ones). */
    private static Map<String, Object> signedInConditions(String identityPoolId) {
        return Map.of("StringEquals", Map.of(COGNITO_IDENTITY + ":aud", identityPoolId),
                "ForAnyValue:StringLike", Map.of(COGNITO_IDENTITY + ":amr", "authenticated"));
    }

    /** The stack's own instance profile and role for game server hosts: always allowed to launch with. */
    LaunchAllowance ownLaunches() {
        return new LaunchAllowance(List.of(gameServerProfile.getAttrArn()),
                List.of(roles.get(Role.GAME_SERVER).getRoleArn()));
    }

}
