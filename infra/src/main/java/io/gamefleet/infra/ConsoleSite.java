package io.gamefleet.infra;

import io.gamefleet.catalog.ConsoleAccess;
import io.gamefleet.catalog.ExtensionRoute;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.Fn;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.cloudfront.AllowedMethods;
import software.amazon.awscdk.services.cloudfront.BehaviorOptions;
import software.amazon.awscdk.services.cloudfront.CachePolicy;
import software.amazon.awscdk.services.cloudfront.Distribution;
import software.amazon.awscdk.services.cloudfront.HeadersFrameOption;
import software.amazon.awscdk.services.cloudfront.HeadersReferrerPolicy;
import software.amazon.awscdk.services.cloudfront.ResponseHeadersContentSecurityPolicy;
import software.amazon.awscdk.services.cloudfront.ResponseHeadersContentTypeOptions;
import software.amazon.awscdk.services.cloudfront.ResponseHeadersFrameOptions;
import software.amazon.awscdk.services.cloudfront.ResponseHeadersPolicy;
import software.amazon.awscdk.services.cloudfront.ResponseHeadersReferrerPolicy;
import software.amazon.awscdk.services.cloudfront.ResponseHeadersStrictTransportSecurity;
import software.amazon.awscdk.services.cloudfront.ResponseSecurityHeadersBehavior;
import software.amazon.awscdk.services.cloudfront.ViewerProtocolPolicy;
import software.amazon.awscdk.services.cloudfront.origins.S3BucketOrigin;
import software.amazon.awscdk.services.cognito.AccountRecovery;
import software.amazon.awscdk.services.cognito.AuthFlow;
import software.amazon.awscdk.services.cognito.CfnIdentityPool;
import software.amazon.awscdk.services.cognito.CfnIdentityPoolRoleAttachment;
import software.amazon.awscdk.services.cognito.CfnUserPoolGroup;
import software.amazon.awscdk.services.cognito.CognitoDomainOptions;
import software.amazon.awscdk.services.cognito.Mfa;
import software.amazon.awscdk.services.cognito.MfaSecondFactor;
import software.amazon.awscdk.services.cognito.OAuthFlows;
import software.amazon.awscdk.services.cognito.OAuthScope;
import software.amazon.awscdk.services.cognito.OAuthSettings;
import software.amazon.awscdk.services.cognito.PasswordPolicy;
import software.amazon.awscdk.services.cognito.SignInAliases;
import software.amazon.awscdk.services.cognito.UserPool;
import software.amazon.awscdk.services.cognito.UserPoolClient;
import software.amazon.awscdk.services.cognito.UserPoolClientIdentityProvider;
import software.amazon.awscdk.services.cognito.UserPoolClientOptions;
import software.amazon.awscdk.services.cognito.UserPoolDomain;
import software.amazon.awscdk.services.cognito.UserPoolDomainOptions;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.ManagedPolicy;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.s3.BlockPublicAccess;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketEncryption;
import software.amazon.awscdk.services.s3.ObjectOwnership;
import software.amazon.awscdk.services.s3.deployment.BucketDeployment;
import software.amazon.awscdk.services.s3.deployment.CacheControl;
import software.amazon.awscdk.services.s3.deployment.Source;
import software.constructs.Construct;

/**
 * The console served by the stack (context {@code console=true}): its built files in a private S3
 * bucket behind CloudFront (origin access control, HTTPS only, security headers and a
 * Content-Security-Policy), and sign-in through a Cognito user pool's hosted UI (authorization
 * code with PKCE, a public client) and an identity pool, whose role mapping gives the members of
 * {@link ConsoleAccess#ADMINS_GROUP} the ADMIN role's temporary credentials and those of
 * {@link ConsoleAccess#VIEWERS_GROUP} the viewer role's. No access key is ever typed: the page
 * signs its calls with those credentials, as it signs with the local profile's keys.
 *
 * <p>Built in two steps: the constructor before the API (whose CORS admits {@link #origin()}) and
 * the functions (which tell the viewer role's sessions apart); {@link #serve} once the API exists
 * (the viewer's routes, and the page's config.json naming the API).
 */
final class ConsoleSite extends Construct {
    /** The page's sign-in settings, beside its index.html (console/src/signin.ts reads it). */
    static final String CONFIG_FILE = "config.json";

    private final DeploymentContext context;
    private final CallerRoles callerRoles;
    private final Bucket files;
    private final Distribution distribution;
    private final UserPool users;
    private final UserPoolDomain domain;
    private final UserPoolClient client;
    private final CfnIdentityPool identities;

    ConsoleSite(Construct scope, String id, DeploymentContext context, CallerRoles callerRoles) {
        super(scope, id);
        this.context = context;
        this.callerRoles = callerRoles;

        // Operators only: an administrator creates each user (docs/deploy.md, "The console"), who
        // sets a password at first sign-in and must add an authenticator app (TOTP): the admins
        // group's credentials are ADMIN's. No SMS, which would need an SNS role and a spending limit.
        users = UserPool.Builder.create(this, "Users")
                .selfSignUpEnabled(false)
                .signInAliases(SignInAliases.builder().email(true).build())
                .passwordPolicy(PasswordPolicy.builder().minLength(12).requireLowercase(true).requireUppercase(true)
                        .requireDigits(true).requireSymbols(true).tempPasswordValidity(Duration.days(3)).build())
                .mfa(Mfa.REQUIRED)
                .mfaSecondFactor(MfaSecondFactor.builder().otp(true).sms(false).build())
                .accountRecovery(AccountRecovery.EMAIL_ONLY)
                .removalPolicy(context.removalPolicy())
                .build();
        NagRules.consoleUsers(users);
        domain = users.addDomain("SignIn", UserPoolDomainOptions.builder()
                .cognitoDomain(CognitoDomainOptions.builder().domainPrefix(context.consoleDomainPrefix()
                        .orElse(Fn.join("-", List.of("gamefleet", context.names().stage(), Aws.ACCOUNT_ID))))
                        .build())
                .build());

        // The access logs of both: the files' bucket's (S3 server access logs) and CloudFront's,
        // whose standard logs need the bucket's ACLs (object writer ownership preferred by the owner).
        Bucket logs = Bucket.Builder.create(this, "AccessLogs")
                .encryption(BucketEncryption.S3_MANAGED)
                .enforceSsl(true)
                .minimumTlsVersion(1.2)
                .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
                .objectOwnership(ObjectOwnership.BUCKET_OWNER_PREFERRED)
                .removalPolicy(context.removalPolicy())
                .build();
        NagRules.consoleAccessLogs(logs);
        files = Bucket.Builder.create(this, "Files")
                .encryption(BucketEncryption.S3_MANAGED)
                .enforceSsl(true)
                .minimumTlsVersion(1.2)
                .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
                .objectOwnership(ObjectOwnership.BUCKET_OWNER_ENFORCED)
                .serverAccessLogsBucket(logs)
                .serverAccessLogsPrefix("files/")
                .removalPolicy(context.removalPolicy())
                .build();

        distribution = Distribution.Builder.create(this, "Distribution")
                .comment("Gamefleet console of " + Stack.of(this).getStackName())
                .defaultRootObject("index.html")
                .defaultBehavior(BehaviorOptions.builder()
                        .origin(S3BucketOrigin.withOriginAccessControl(files))
                        .viewerProtocolPolicy(ViewerProtocolPolicy.REDIRECT_TO_HTTPS)
                        .allowedMethods(AllowedMethods.ALLOW_GET_HEAD)
                        .cachePolicy(CachePolicy.CACHING_OPTIMIZED)
                        .responseHeadersPolicy(headers())
                        .build())
                .enableLogging(true)
                .logBucket(logs)
                .logFilePrefix("cloudfront/")
                .build();
        NagRules.consoleDistribution(distribution);

        // A public client (no secret: a page keeps none) that may only run the authorization code
        // flow, with PKCE (the page sends a code challenge; console/src/signin.ts), back to the page.
        client = users.addClient("ConsoleClient", UserPoolClientOptions.builder()
                .generateSecret(false)
                .authFlows(AuthFlow.builder().userSrp(true).build())
                .oAuth(OAuthSettings.builder()
                        .flows(OAuthFlows.builder().authorizationCodeGrant(true).build())
                        .scopes(List.of(OAuthScope.OPENID, OAuthScope.EMAIL))
                        .callbackUrls(List.of(url()))
                        .logoutUrls(List.of(url()))
                        .build())
                .supportedIdentityProviders(List.of(UserPoolClientIdentityProvider.COGNITO))
                .preventUserExistenceErrors(true)
                .enableTokenRevocation(true)
                .idTokenValidity(Duration.hours(1))
                .accessTokenValidity(Duration.hours(1))
                // A working day: then the operator signs in again.
                .refreshTokenValidity(Duration.hours(12))
                .build());
        for (String group : List.of(ConsoleAccess.ADMINS_GROUP, ConsoleAccess.VIEWERS_GROUP)) {
            CfnUserPoolGroup.Builder.create(this, group.equals(ConsoleAccess.ADMINS_GROUP) ? "AdminsGroup" : "ViewersGroup")
                    .userPoolId(users.getUserPoolId())
                    .groupName(group)
                    .description(group.equals(ConsoleAccess.ADMINS_GROUP)
                            ? "Sign in to the Gamefleet console as ADMIN"
                            : "Sign in to the Gamefleet console to read what a MATCHMAKER reads, and change nothing")
                    // A member of both is an admin: the identity pool's rules come in this order too.
                    .precedence(group.equals(ConsoleAccess.ADMINS_GROUP) ? 0 : 1)
                    .build();
        }

        // Signed-in identities only; the enhanced flow alone (the basic flow would let a caller pick
        // any role the pool's trust admits), and the ID token checked with the user pool at each exchange.
        identities = CfnIdentityPool.Builder.create(this, "Identities")
                .allowUnauthenticatedIdentities(false)
                .allowClassicFlow(false)
                .cognitoIdentityProviders(List.of(CfnIdentityPool.CognitoIdentityProviderProperty.builder()
                        .providerName(users.getUserPoolProviderName())
                        .clientId(client.getUserPoolClientId())
                        .serverSideTokenCheck(true)
                        .build()))
                .build();
        var viewer = callerRoles.admitConsoleSignIn(identities.getRef());
        // By the ID token's groups: admins first; a user in neither group gets no credentials.
        CfnIdentityPoolRoleAttachment.Builder.create(this, "RoleMapping")
                .identityPoolId(identities.getRef())
                .roleMappings(Map.of("console", CfnIdentityPoolRoleAttachment.RoleMappingProperty.builder()
                        .type("Rules")
                        .ambiguousRoleResolution("Deny")
                        .identityProvider(Fn.join(":", List.of(users.getUserPoolProviderName(),
                                client.getUserPoolClientId())))
                        .rulesConfiguration(CfnIdentityPoolRoleAttachment.RulesConfigurationTypeProperty.builder()
                                .rules(List.of(rule(ConsoleAccess.ADMINS_GROUP, callerRoles.role(Role.ADMIN).getRoleArn()),
                                        rule(ConsoleAccess.VIEWERS_GROUP, viewer.getRoleArn())))
                                .build())
                        .build()))
                .build();
    }

    /** The page's origin, which the API's CORS admits. */
    String origin() {
        return "https://" + distribution.getDistributionDomainName();
    }

    /** The page's address: the sign-in's callback. */
    String url() {
        return origin() + "/";
    }

    /**
     * Once the API exists: the viewer role's policy (a MATCHMAKER's GET routes, the JSON door, whose
     * function admits a viewer for those reads alone), the console's files and their config.json,
     * and the outputs.
     */
    void serve(Api api, String apiUrl) {
        viewerPolicy(api);

        Map<String, Object> config = new LinkedHashMap<>();
        config.put("region", Aws.REGION);
        config.put("apiUrl", apiUrl);
        config.put("signIn", Map.of(
                "domain", domain.baseUrl(),
                "clientId", client.getUserPoolClientId(),
                "identityPoolId", identities.getRef(),
                "userPoolProviderName", users.getUserPoolProviderName()));
        // No file is cached past a check with the bucket (a conditional GET, 304 when unchanged):
        // a deployment's new index.html and config.json are served at once, with no invalidation.
        // CDK's copying function, with a role of its own rather than the AWS managed basic execution
        // role: it writes only to its own log group (the copy's grants CDK adds to this role).
        LogGroup deploymentLogs = Logs.group(this, "DeploymentLogs",
                "/" + Stack.of(this).getStackName() + "/console/deployment", context.logRetention());
        software.amazon.awscdk.services.iam.Role deploymentRole = software.amazon.awscdk.services.iam.Role.Builder
                .create(this, "DeploymentRole")
                .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
                .description("Copies the console's files into their bucket at deployment")
                .build();
        deploymentRole.addToPrincipalPolicy(PolicyStatement.Builder.create().sid("WriteOwnLogs").effect(Effect.ALLOW)
                .actions(List.of("logs:CreateLogStream", "logs:PutLogEvents"))
                .resources(List.of(deploymentLogs.getLogGroupArn())).build());
        BucketDeployment deployment = BucketDeployment.Builder.create(this, "Deployment")
                .role(deploymentRole)
                .logGroup(deploymentLogs)
                .sources(List.of(Source.asset(context.consoleDist().toString()), Source.jsonData(CONFIG_FILE, config)))
                .destinationBucket(files)
                .cacheControl(List.of(CacheControl.noCache()))
                .prune(true)
                .memoryLimit(256)
                .build();
        NagRules.consoleDeployment(deploymentRole, files.getBucketArn());

        // On the stack, so that the outputs' names are what docs/deploy.md says.
        Stack stack = Stack.of(this);
        CfnOutput.Builder.create(stack, "ConsoleUrl").value(url())
                .description("The Gamefleet console: sign in with a user of the pool ConsoleUserPoolId in group admins "
                        + "or viewers (docs/deploy.md, 'The console')")
                .build();
        CfnOutput.Builder.create(stack, "ConsoleUserPoolId").value(users.getUserPoolId())
                .description("The console's users: aws cognito-idp admin-create-user --user-pool-id <this> --username "
                        + "<email>, then admin-add-user-to-group --group-name admins (or viewers)")
                .build();
        CfnOutput.Builder.create(stack, "ConsoleSignInDomain").value(domain.baseUrl())
                .description("The console's hosted sign-in")
                .build();
        CfnOutput.Builder.create(stack, "ConsoleIdentityPoolId").value(identities.getRef())
                .description("Gives the console's signed-in users their group's role: admins ADMIN, viewers the viewer role")
                .build();
    }

    /**
     * The page's headers: HSTS, no sniffing, no framing, no referrer, and a Content-Security-Policy
     * that runs only the page's own files and connects only to API Gateway in this region (and the
     * peers' APIs), Cognito Identity and the hosted sign-in. The API by its execute-api host's
     * wildcard, not its id: the API's CORS names this distribution, so the distribution cannot name
     * the API (CloudFormation would find a cycle); the calls are SigV4-signed and IAM-authorized.
     */
    private ResponseHeadersPolicy headers() {
        List<String> connect = new ArrayList<>(List.of("'self'", "https://*.execute-api." + Aws.REGION + "." + Aws.URL_SUFFIX,
                "https://cognito-identity." + Aws.REGION + "." + Aws.URL_SUFFIX, domain.baseUrl()));
        for (PeerRegion peer : context.peerRegions()) {
            connect.add(peer.apiUrl().replaceAll("^(https?://[^/]+).*$", "$1"));
        }
        String policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src "
                + String.join(" ", connect) + "; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
        return ResponseHeadersPolicy.Builder.create(this, "Headers")
                .comment("Gamefleet console: security headers and its Content-Security-Policy")
                .securityHeadersBehavior(ResponseSecurityHeadersBehavior.builder()
                        .contentSecurityPolicy(ResponseHeadersContentSecurityPolicy.builder()
                                .contentSecurityPolicy(policy).override(true).build())
                        .strictTransportSecurity(ResponseHeadersStrictTransportSecurity.builder()
                                .accessControlMaxAge(Duration.days(730)).includeSubdomains(true).override(true).build())
                        .contentTypeOptions(ResponseHeadersContentTypeOptions.builder().override(true).build())
                        .frameOptions(ResponseHeadersFrameOptions.builder().frameOption(HeadersFrameOption.DENY)
                                .override(true).build())
                        .referrerPolicy(ResponseHeadersReferrerPolicy.builder()
                                .referrerPolicy(HeadersReferrerPolicy.NO_REFERRER).override(true).build())
                        .build())
                .build();
    }

    /**
     * A MATCHMAKER's reads ({@link ConsoleAccess}): its GET routes, and the JSON door (POST /), whose
     * function admits a viewer's session for those operations alone; a Deny of Gamefleet's own routes
     * a viewer has not, which the GET wildcards would reach (as {@link CallerPolicies} does).
     */
    private void viewerPolicy(Api api) {
        List<String> routes = new ArrayList<>();
        for (Route route : Routes.ALL) {
            if (ConsoleAccess.viewerReads(route)) {
                routes.add(api.arnOf(route));
            }
        }
        for (ExtensionRoute extension : Routes.EXTENSIONS) {
            if (ConsoleAccess.viewerReads(extension)) {
                routes.add(api.arnOf(extension));
            }
        }
        routes.add(api.jsonDoorArn());
        List<String> others = Routes.EXTENSIONS.stream().filter(e -> !ConsoleAccess.viewerReads(e)).map(api::denyArnOf)
                .toList();
        ManagedPolicy policy = ManagedPolicy.Builder.create(this, "ViewerPolicy")
                .description("Gamefleet console viewers: execute-api:Invoke on a MATCHMAKER's " + (routes.size() - 1)
                        + " GET routes and the JSON door (which admits their reads alone)")
                .statements(List.of(
                        PolicyStatement.Builder.create().sid("InvokeReadRoutes").effect(Effect.ALLOW)
                                .actions(List.of("execute-api:Invoke")).resources(routes).build(),
                        PolicyStatement.Builder.create().sid("DenyOtherRoutes").effect(Effect.DENY)
                                .actions(List.of("execute-api:Invoke")).resources(others).build()))
                .build();
        callerRoles.viewer().orElseThrow().addManagedPolicy(policy);
        NagRules.callerPolicy(policy, routes);
    }

    private static CfnIdentityPoolRoleAttachment.MappingRuleProperty rule(String group, String roleArn) {
        return CfnIdentityPoolRoleAttachment.MappingRuleProperty.builder()
                .claim("cognito:groups").matchType("Contains").value(group).roleArn(roleArn).build();
    }
}
