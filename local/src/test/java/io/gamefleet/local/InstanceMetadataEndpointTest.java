package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A simulated instance's metadata endpoint over HTTP, as a game server process on the instance would
 * try it: without its agent's endpoint secret (the bare path, another instance's secret, a guessed
 * one) every request is a 403 with nothing of the instance's, no IMDSv2 token, no keys; with its
 * agent's endpoint the keys are EC2's items, the same as {@code GET /_local/instances/<id>/credentials}
 * gives with this run's token (and refuses without it). An ended instance's keys sign nothing.
 */
class InstanceMetadataEndpointTest {
    private static final String GROUP = "imds";
    private static final String ROLE = "gamefleet-game-server";

    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension()
            .localOnly("a simulated instance's metadata endpoint");

    private static RawHttp raw;
    private static String host;
    private static String instance;
    private static String other;

    @BeforeAll
    static void twoInstances() {
        raw = new RawHttp(LOCAL.profile().endpoint());
        host = LOCAL.profile().endpoint().getAuthority();
        LOCAL.admin().createActive(GamefleetClient.groupBody(GROUP, 2, 2));
        List<String> ids = LOCAL.admin().instanceIds(GROUP);
        instance = ids.get(0);
        other = ids.get(1);
    }

    private static RawHttp.Answer request(String method, String path, String headers) {
        return raw.exchange(method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\n" + headers
                + (method.equals("PUT") ? "Content-Length: 0\r\n" : "") + "Connection: close\r\n\r\n");
    }

    private static RawHttp.Answer token(String base) {
        return request("PUT", base + "/latest/api/token", "X-aws-ec2-metadata-token-ttl-seconds: 60\r\n");
    }

    /** The agent's own endpoint's path: {@code /_local/imds/<instance>/<secret>}. */
    private static String agentsEndpoint(String instanceId) {
        return LOCAL.profile().edge().metadataEndpoint(instanceId).getPath();
    }

    @Test
    void withoutItsAgentsEndpointSecretAGameServerGetsA403AndNoTokenNoMetadataNoKeys() {
        String keysPath = "/latest/meta-data/iam/security-credentials/" + ROLE;
        String agentsToken = token(agentsEndpoint(instance)).body();
        String otherSecret = agentsEndpoint(other).substring(agentsEndpoint(other).lastIndexOf('/'));
        for (String base : List.of("/_local/imds/" + instance, "/_local/imds/" + instance + otherSecret,
                "/_local/imds/" + instance + "/guessed", agentsEndpoint(instance) + "x")) {
            for (RawHttp.Answer refused : List.of(token(base),
                    request("GET", base + keysPath, "X-aws-ec2-metadata-token: " + agentsToken + "\r\n"),
                    request("GET", base + "/latest/meta-data/instance-id", "X-aws-ec2-metadata-token: " + agentsToken
                            + "\r\n"))) {
                assertThat(refused.status()).as("%s %s", base, refused).isEqualTo(403);
                assertThat(refused.headers()).doesNotContainKey("x-aws-ec2-metadata-token-ttl-seconds");
                assertThat(refused.body()).contains("metadata answers its agent only").doesNotContain("AccessKeyId")
                        .doesNotContain("local-instance-");
            }
        }
    }

    @Test
    void theAgentsEndpointHandsOutTheInstanceProfilesKeysAsTheCredentialsPathDoes() throws Exception {
        String base = agentsEndpoint(instance);
        RawHttp.Answer token = token(base);
        assertThat(token.status()).as("%s", token).isEqualTo(200);
        String header = "X-aws-ec2-metadata-token: " + token.body() + "\r\n";
        assertThat(request("GET", base + "/latest/meta-data/iam/security-credentials/", header).body()).isEqualTo(ROLE);
        JsonNode keys = GamefleetClient.JSON.readTree(request("GET", base + "/latest/meta-data/iam/security-credentials/"
                + ROLE, header).body());
        assertThat(keys.path("Code").asText()).isEqualTo("Success");
        assertThat(keys.path("Type").asText()).isEqualTo("AWS-HMAC");
        assertThat(keys.path("AccessKeyId").asText()).startsWith("local-instance-");
        assertThat(keys.path("Token").asText()).isNotBlank();

        JsonNode same = LOCAL.instanceCredentials(instance);
        for (String field : List.of("AccessKeyId", "SecretAccessKey", "Token", "LastUpdated", "Code", "Type")) {
            assertThat(same.path(field)).as(field).isEqualTo(keys.path(field));
        }
        assertThat(LOCAL.instanceCredentials(other).path("AccessKeyId")).as("each instance its own keys")
                .isNotEqualTo(keys.path("AccessKeyId"));
    }

    @Test
    void theCredentialsPathNeedsThisRunsTokenAndNamesAnInstanceOfTheFleet() {
        String path = "/_local/instances/" + instance + "/credentials";
        assertThat(request("GET", path, "").refusal(403, "UnauthorizedException")).contains("X-Gamefleet-Local-Token");
        request("GET", path, "X-Gamefleet-Local-Token: " + LOCAL.profile().localToken() + "x\r\n")
                .refusal(403, "UnauthorizedException");
        assertThat(request("GET", path, "X-Gamefleet-Local-Token: " + LOCAL.profile().localToken() + "\r\n").json()
                .path("SecretAccessKey").asText()).isNotBlank();
        request("GET", "/_local/instances/i-00000000000000000/credentials", "X-Gamefleet-Local-Token: "
                + LOCAL.profile().localToken() + "\r\n").refusal(404, "NotFoundException");
    }

    @Test
    void anEndedInstancesKeysSignNothing() {
        String group = "imds-ending";
        LOCAL.admin().createActive(GamefleetClient.groupBody(group, 1, 1));
        String ending = LOCAL.admin().firstInstance(group);
        GamefleetClient keys = LOCAL.asInstance(ending);
        assertThat(keys.describeServer(group, "nobody-1").status()).as("known keys: the API answers").isEqualTo(404);

        LOCAL.profile().fleet().interrupt(ending);
        LOCAL.clock().advance(Duration.ofMinutes(2));
        LOCAL.profile().fleet().tick();
        assertThat(LOCAL.profile().fleet().instance(ending)).isEmpty();

        keys.describeServer(group, "nobody-1").error(403, "UnauthorizedException");
        URI gone = URI.create("/_local/instances/" + ending + "/credentials");
        request("GET", gone.toString(), "X-Gamefleet-Local-Token: " + LOCAL.profile().localToken() + "\r\n")
                .refusal(404, "NotFoundException");
    }
}
