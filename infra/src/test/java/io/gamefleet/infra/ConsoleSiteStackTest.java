package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.catalog.ConsoleAccess;
import io.gamefleet.catalog.ExtensionRoute;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Route;
import io.gamefleet.catalog.Routes;
import io.gamefleet.catalog.Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * The console the stack serves (context console=true, {@link ConsoleSite}): private files behind
 * CloudFront, the headers, the user pool and its client, the identity pool and its role mapping,
 * the roles' trust, the viewer's least privilege, the API's CORS, the deployment of the files and
 * config.json, and the outputs; none of it by default.
 */
class ConsoleSiteStackTest extends SynthesizedStack {
    static Map<String, Object> withConsole() {
        return Map.of(DeploymentContext.CONSOLE, "true");
    }

    @Override
    Map<String, Object> context() {
        return withConsole();
    }

    private String distributionId() {
        return onlyResourceOf("AWS::CloudFront::Distribution");
    }

    /** https://<the distribution's domain>, as the template builds it. */
    private String origin() {
        return "https://<" + distributionId() + ".DomainName>";
    }

    private String filesBucketId() {
        return ofType("AWS::S3::Bucket").entrySet().stream()
                .filter(e -> props(e.getValue()).containsKey("LoggingConfiguration")
                        && "files/".equals(map(props(e.getValue()).get("LoggingConfiguration")).get("LogFilePrefix")))
                .map(Map.Entry::getKey).findFirst().orElseThrow();
    }

    private String viewerRoleId() {
        return idWhere("AWS::IAM::Role", "Description", "Gamefleet console viewers: a MATCHMAKER's reads (GET routes), nothing else");
    }

    private String adminRoleId() {
        return idWhere("AWS::IAM::Role", "Description", "Gamefleet ADMIN callers");
    }

    private String identityPoolId() {
        return onlyResourceOf("AWS::Cognito::IdentityPool");
    }

    @Test
    void byDefaultTheStackServesNoConsole() {
        Template plain = Template.fromStack(stack(Map.of()));
        for (String type : List.of("AWS::CloudFront::Distribution", "AWS::Cognito::UserPool", "AWS::Cognito::IdentityPool",
                "Custom::CDKBucketDeployment")) {
            assertThat(plain.findResources(type)).as(type).isEmpty();
        }
        assertThat(plain.findOutputs("ConsoleUrl")).isEmpty();
    }

    @Test
    void theFilesArePrivateEncryptedTlsOnlyLoggedAndReadByTheDistributionAlone() {
        Map<String, Object> bucket = props(resources.get(filesBucketId()));
        assertThat(map(bucket.get("PublicAccessBlockConfiguration"))).containsEntry("BlockPublicAcls", true)
                .containsEntry("BlockPublicPolicy", true).containsEntry("IgnorePublicAcls", true)
                .containsEntry("RestrictPublicBuckets", true);
        assertThat(render(bucket.get("BucketEncryption"))).contains("AES256");
        List<Map<String, Object>> statements = cast(map(props(resources.get(idWhere("AWS::S3::BucketPolicy", "Bucket",
                ref(filesBucketId())))).get("PolicyDocument")).get("Statement"));
        // Nobody but CloudFront, for this distribution, reads: the only Allow is its s3:GetObject.
        assertThat(statements.stream().filter(s -> "Allow".equals(s.get("Effect"))).toList()).singleElement()
                .satisfies(s -> {
                    assertThat(s.get("Action")).isEqualTo("s3:GetObject");
                    assertThat(s.get("Principal")).isEqualTo(Map.of("Service", "cloudfront.amazonaws.com"));
                    assertThat(render(map(map(s.get("Condition")).get("StringEquals")).get("AWS:SourceArn")))
                            .isEqualTo("arn:<AWS::Partition>:cloudfront::<AWS::AccountId>:distribution/<" + distributionId() + ">");
                });
        assertThat(statements.stream().filter(s -> "Deny".equals(s.get("Effect"))).map(s -> render(s.get("Condition"))))
                .anyMatch(c -> c.contains("aws:SecureTransport=false"));
    }

    @Test
    void theDistributionServesHttpsOnlyThroughOriginAccessControlWithLogs() {
        Map<String, Object> config = map(props(resources.get(distributionId())).get("DistributionConfig"));
        Map<String, Object> behavior = map(config.get("DefaultCacheBehavior"));
        assertThat(behavior).containsEntry("ViewerProtocolPolicy", "redirect-to-https")
                .containsEntry("AllowedMethods", List.of("GET", "HEAD"));
        assertThat(config).containsEntry("DefaultRootObject", "index.html").containsKey("Logging");
        List<Map<String, Object>> origins = cast(config.get("Origins"));
        assertThat(origins).singleElement().satisfies(o -> {
            assertThat(render(o.get("OriginAccessControlId")))
                    .isEqualTo("<" + onlyResourceOf("AWS::CloudFront::OriginAccessControl") + ".Id>");
            assertThat(render(o.get("DomainName"))).isEqualTo("<" + filesBucketId() + ".RegionalDomainName>");
        });
    }

    @Test
    void thePageGetsSecurityHeadersAndAPolicyThatConnectsOnlyToTheApiCognitoAndTheSignIn() {
        Map<String, Object> headers = map(map(props(resources.get(onlyResourceOf("AWS::CloudFront::ResponseHeadersPolicy")))
                .get("ResponseHeadersPolicyConfig")).get("SecurityHeadersConfig"));
        String csp = render(map(headers.get("ContentSecurityPolicy")).get("ContentSecurityPolicy"));
        String domain = onlyResourceOf("AWS::Cognito::UserPoolDomain");
        assertThat(csp).startsWith("default-src 'none'; script-src 'self'; style-src 'self';")
                .contains("connect-src 'self' https://*.execute-api.<AWS::Region>.<AWS::URLSuffix> "
                        + "https://cognito-identity.<AWS::Region>.<AWS::URLSuffix> https://<" + domain
                        + ">.auth.<AWS::Region>.amazoncognito.com;")
                .contains("frame-ancestors 'none'").contains("form-action 'none'").contains("base-uri 'none'");
        assertThat(map(headers.get("FrameOptions"))).containsEntry("FrameOption", "DENY");
        assertThat(map(headers.get("ReferrerPolicy"))).containsEntry("ReferrerPolicy", "no-referrer");
        assertThat(map(headers.get("StrictTransportSecurity"))).containsEntry("AccessControlMaxAgeSec", 63072000);
        assertThat(headers).containsKey("ContentTypeOptions");
        assertThat(render(map(props(resources.get(distributionId())).get("DistributionConfig")).get("DefaultCacheBehavior")))
                .contains(onlyResourceOf("AWS::CloudFront::ResponseHeadersPolicy"));
    }

    @Test
    void theUserPoolTakesNoSignUpAStrongPasswordAndAnAuthenticatorApp() {
        Map<String, Object> pool = props(resources.get(onlyResourceOf("AWS::Cognito::UserPool")));
        assertThat(map(pool.get("AdminCreateUserConfig"))).containsEntry("AllowAdminCreateUserOnly", true);
        assertThat(pool).containsEntry("MfaConfiguration", "ON").containsEntry("EnabledMfas", List.of("SOFTWARE_TOKEN_MFA"));
        assertThat(map(map(pool.get("Policies")).get("PasswordPolicy"))).containsEntry("MinimumLength", 12)
                .containsEntry("RequireLowercase", true).containsEntry("RequireUppercase", true)
                .containsEntry("RequireNumbers", true).containsEntry("RequireSymbols", true);
        assertThat(ofType("AWS::Cognito::UserPoolGroup").values().stream().map(g -> props(g).get("GroupName")))
                .containsExactlyInAnyOrder(ConsoleAccess.ADMINS_GROUP, ConsoleAccess.VIEWERS_GROUP);
        assertThat(render(props(resources.get(onlyResourceOf("AWS::Cognito::UserPoolDomain"))).get("Domain")))
                .isEqualTo("gamefleet-prod-<AWS::AccountId>");
    }

    @Test
    void theConsolesClientIsPublicRunsTheCodeFlowOnlyAndReturnsToTheDistribution() {
        Map<String, Object> client = props(resources.get(onlyResourceOf("AWS::Cognito::UserPoolClient")));
        assertThat(client).containsEntry("GenerateSecret", false).containsEntry("AllowedOAuthFlows", List.of("code"))
                .containsEntry("SupportedIdentityProviders", List.of("COGNITO"))
                .containsEntry("PreventUserExistenceErrors", "ENABLED");
        assertThat(render(client.get("CallbackURLs"))).isEqualTo(origin() + "/");
        assertThat(render(client.get("LogoutURLs"))).isEqualTo(origin() + "/");
    }

    @Test
    void theIdentityPoolGivesAdminsTheAdminRoleViewersTheViewerRoleAndNobodyElseAnything() {
        Map<String, Object> pool = props(resources.get(identityPoolId()));
        assertThat(pool).containsEntry("AllowUnauthenticatedIdentities", false).containsEntry("AllowClassicFlow", false);
        List<Map<String, Object>> providers = cast(pool.get("CognitoIdentityProviders"));
        assertThat(providers).singleElement().satisfies(p -> {
            assertThat(p).containsEntry("ServerSideTokenCheck", true)
                    .containsEntry("ClientId", ref(onlyResourceOf("AWS::Cognito::UserPoolClient")));
        });
        Map<String, Object> attachment = props(resources.get(onlyResourceOf("AWS::Cognito::IdentityPoolRoleAttachment")));
        assertThat(attachment).doesNotContainKey("Roles").containsEntry("IdentityPoolId", ref(identityPoolId()));
        Map<String, Object> mapping = map(map(attachment.get("RoleMappings")).get("console"));
        assertThat(mapping).containsEntry("Type", "Rules").containsEntry("AmbiguousRoleResolution", "Deny");
        List<Map<String, Object>> rules = cast(map(mapping.get("RulesConfiguration")).get("Rules"));
        assertThat(rules).hasSize(2);
        assertThat(rules.get(0)).containsEntry("Claim", "cognito:groups").containsEntry("MatchType", "Contains")
                .containsEntry("Value", ConsoleAccess.ADMINS_GROUP);
        assertThat(getAttId(rules.get(0).get("RoleARN"))).isEqualTo(adminRoleId());
        assertThat(rules.get(1)).containsEntry("Value", ConsoleAccess.VIEWERS_GROUP);
        assertThat(getAttId(rules.get(1).get("RoleARN"))).isEqualTo(viewerRoleId());
    }

    @Test
    void theAdminAndViewerRolesTrustThisPoolsSignedInIdentitiesOnly() {
        Map<String, Object> expected = Map.of("StringEquals", Map.of("cognito-identity.amazonaws.com:aud", ref(identityPoolId())),
                "ForAnyValue:StringLike", Map.of("cognito-identity.amazonaws.com:amr", "authenticated"));
        List<Map<String, Object>> admin = trust(adminRoleId());
        assertThat(admin.stream().filter(s -> "sts:AssumeRoleWithWebIdentity".equals(s.get("Action"))).toList())
                .singleElement().satisfies(s -> {
                    assertThat(s.get("Principal")).isEqualTo(Map.of("Federated", "cognito-identity.amazonaws.com"));
                    assertThat(s.get("Condition")).isEqualTo(expected);
                });
        assertThat(trust(viewerRoleId())).singleElement().satisfies(s -> {
            assertThat(s).containsEntry("Action", "sts:AssumeRoleWithWebIdentity").containsEntry("Effect", "Allow");
            assertThat(s.get("Principal")).isEqualTo(Map.of("Federated", "cognito-identity.amazonaws.com"));
            assertThat(s.get("Condition")).isEqualTo(expected);
        });
        // Nothing else of the template trusts Cognito Identity.
        assertThat(ofType("AWS::IAM::Role").keySet().stream().filter(id -> render(trust(id)).contains("cognito-identity")))
                .containsExactlyInAnyOrder(adminRoleId(), viewerRoleId());
    }

    /** ConsoleAccess: a MATCHMAKER's GET routes and the JSON door, Gamefleet's other routes denied by name, nothing else. */
    @Test
    void theViewerMayInvokeTheReadRoutesAndTheJsonDoorAlone() {
        Map<String, Object> viewer = props(resources.get(viewerRoleId()));
        assertThat(viewer).doesNotContainKey("Policies");
        assertThat(statementsOfRole(viewerRoleId())).isEmpty();
        List<Object> managed = listOf(viewer.get("ManagedPolicyArns"));
        assertThat(managed).hasSize(1);
        String policyId = (String) map(managed.get(0)).get("Ref");
        List<Map<String, Object>> statements = cast(map(props(resources.get(policyId)).get("PolicyDocument")).get("Statement"));
        String api = httpApiId();
        List<String> expected = new ArrayList<>();
        for (Route route : Routes.ALL) {
            if (route.method().equals("GET") && route.roles().contains(Role.MATCHMAKER)) {
                expected.add(arn(api, route.method(), route.path()));
            }
        }
        for (ExtensionRoute route : Routes.EXTENSIONS) {
            if (route.method().equals("GET") && route.roles().contains(Role.MATCHMAKER)) {
                expected.add(arn(api, route.method(), route.path()));
            }
        }
        expected.add("arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<" + api + ">/$default/POST/");
        Map<String, Object> allow = statements.stream().filter(s -> "Allow".equals(s.get("Effect"))).findFirst().orElseThrow();
        assertThat(allow).containsEntry("Action", "execute-api:Invoke");
        assertThat(resourcesOf(allow).stream().map(SynthesizedStack::render)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(expected).as("no write, no claim: every route but the door is a GET").allMatch(a -> a.contains("/GET/")
                || a.endsWith("/POST/"));
        Map<String, Object> deny = statements.stream().filter(s -> "Deny".equals(s.get("Effect"))).findFirst().orElseThrow();
        assertThat(resourcesOf(deny).stream().map(SynthesizedStack::render)).contains(
                "arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<" + api
                        + ">/$default/GET/game-server-groups/*/game-servers/*/process");
        assertThat(statements).hasSize(2);
    }

    @Test
    void theJsonDoorAloneKnowsTheViewerRole() {
        for (String name : functionNames()) {
            Map<String, Object> variables = variables(resources.get(functionId(name)));
            if (name.equals(Routes.JSON_DOOR.functionName())) {
                assertThat(variables.get(Settings.VIEWER_ROLE_ARN.environmentVariable()))
                        .isEqualTo(Map.of("Fn::GetAtt", List.of(viewerRoleId(), "Arn")));
                assertThat(variables.get(Settings.VIEWER_ROLE_ID.environmentVariable()))
                        .isEqualTo(Map.of("Fn::GetAtt", List.of(viewerRoleId(), "RoleId")));
            } else {
                assertThat(variables).as(name).doesNotContainKey(Settings.VIEWER_ROLE_ARN.environmentVariable());
            }
        }
    }

    @Test
    void theApiAdmitsTheDistributionsOriginOnlyAndThenConsoleOrigins() {
        assertThat(render(map(props(resources.get(httpApiId())).get("CorsConfiguration")).get("AllowOrigins")))
                .isEqualTo(origin());
        Template both = Template.fromStack(stack(Map.of(DeploymentContext.CONSOLE, "true",
                DeploymentContext.CONSOLE_ORIGINS, "http://localhost:5173")));
        Map<String, Object> api = both.findResources("AWS::ApiGatewayV2::Api",
                Map.of("Properties", Map.of("ProtocolType", "HTTP"))).values().iterator().next();
        List<Object> origins = cast(map(props(api).get("CorsConfiguration")).get("AllowOrigins"));
        assertThat(origins).hasSize(2);
        assertThat(origins.get(1)).isEqualTo("http://localhost:5173");
    }

    @Test
    void theDeploymentCopiesTheBuiltFilesAndAConfigNamingTheApiAndTheSignIn() {
        Map<String, Object> deployment = props(resources.get(onlyResourceOf("Custom::CDKBucketDeployment")));
        assertThat(deployment).containsEntry("DestinationBucketName", ref(filesBucketId())).containsEntry("Prune", true)
                .containsEntry("SystemMetadata", Map.of("cache-control", "no-cache"));
        assertThat(listOf(deployment.get("SourceObjectKeys"))).hasSize(2);
        String markers = render(listOf(deployment.get("SourceMarkers")).stream()
                .flatMap(m -> map(m).values().stream()).toList());
        assertThat(markers).contains("https://<" + httpApiId() + ">.execute-api.<AWS::Region>.<AWS::URLSuffix>/")
                .contains("<" + onlyResourceOf("AWS::Cognito::UserPoolClient") + ">")
                .contains("<" + identityPoolId() + ">")
                .contains("https://<" + onlyResourceOf("AWS::Cognito::UserPoolDomain") + ">.auth.<AWS::Region>.amazoncognito.com");
        // The copying function has a role of its own, with no AWS managed policy.
        String role = idWhere("AWS::IAM::Role", "Description", "Copies the console's files into their bucket at deployment");
        Map<String, Object> copier = props(ofType("AWS::Lambda::Function").entrySet().stream()
                .filter(e -> e.getKey().startsWith("CustomCDKBucketDeployment")).findFirst().orElseThrow().getValue());
        assertThat(getAttId(copier.get("Role"))).isEqualTo(role);
        assertThat(props(resources.get(role))).doesNotContainKey("ManagedPolicyArns");
    }

    @Test
    void theOutputsNameTheUrlThePoolAndHowToAddAUser() {
        Map<String, Map<String, Object>> outputs = cast(template.toJSON().get("Outputs"));
        assertThat(render(outputs.get("ConsoleUrl").get("Value"))).isEqualTo(origin() + "/");
        assertThat(outputs.get("ConsoleUserPoolId").get("Value")).isEqualTo(ref(onlyResourceOf("AWS::Cognito::UserPool")));
        assertThat((String) outputs.get("ConsoleUserPoolId").get("Description")).contains("admin-create-user")
                .contains("admin-add-user-to-group --group-name admins");
        assertThat(outputs).containsKeys("ConsoleSignInDomain", "ConsoleIdentityPoolId", "ConsoleViewerRoleArn");
    }

    @Test
    void theConsoleNeedsItsBuiltFilesAndAValidSwitch() {
        assertThatThrownBy(() -> stack(Map.of(DeploymentContext.CONSOLE, "true",
                DeploymentContext.CONSOLE_DIST, temp.resolve("no-such-dist").toString())))
                .hasMessageContaining("index.html").hasMessageContaining(DeploymentContext.CONSOLE_DIST);
        assertThatThrownBy(() -> stack(Map.of(DeploymentContext.CONSOLE, "yes")))
                .hasMessageContaining("context console must be true or false");
        assertThatThrownBy(() -> stack(Map.of(DeploymentContext.CONSOLE, "true",
                DeploymentContext.CONSOLE_DOMAIN_PREFIX, "my-amazon-console")))
                .hasMessageContaining(DeploymentContext.CONSOLE_DOMAIN_PREFIX);
    }

    private List<Map<String, Object>> trust(String roleId) {
        return cast(map(props(resources.get(roleId)).get("AssumeRolePolicyDocument")).get("Statement"));
    }

    /** A route's ARN as Api.arnOf renders it: each path parameter '?*'. */
    private static String arn(String api, String method, String path) {
        return "arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:<" + api + ">/$default/" + method
                + path.replaceAll("\\{[^/}]+}", "?*");
    }
}
