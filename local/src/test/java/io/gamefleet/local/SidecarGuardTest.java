package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.local.process.ChildProcess;
import java.net.URI;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Step Functions sidecar's own listener, as another local user or a page in the developer's
 * browser would try it: without this run's token, with a wrong one, or under a foreign Host (DNS
 * rebinding) it refuses every call with a JSON 403 and starts or creates nothing; with the token
 * and its own Host it answers. The profile's workflows run through it all along (its SDK clients
 * send the token).
 */
class SidecarGuardTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension().localOnly("the profile's own sidecar");

    private static RawHttp raw;
    private static String host;
    private static String token;

    @BeforeAll
    static void theSidecar() {
        URI sidecar = LOCAL.profile().children().stream().filter(c -> c.name().equals(FaultProfile.SIDECAR)).findFirst()
                .map(ChildProcess::endpoint).orElseThrow();
        raw = new RawHttp(sidecar);
        host = sidecar.getAuthority();
        token = LOCAL.profile().localToken();
    }

    private static RawHttp.Answer call(String operation, String hostHeader, String tokenHeader, String body) {
        return raw.exchange("POST / HTTP/1.1\r\nHost: " + hostHeader + "\r\nX-Amz-Target: AWSStepFunctions." + operation
                + "\r\nContent-Type: application/x-amz-json-1.0\r\n" + (tokenHeader == null ? ""
                : "X-Gamefleet-Local-Token: " + tokenHeader + "\r\n") + "Content-Length: " + body.length()
                + "\r\nConnection: close\r\n\r\n" + body);
    }

    private static String refusal(RawHttp.Answer answer) {
        assertThat(answer.status()).as("%s", answer).isEqualTo(403);
        JsonNode error = answer.json();
        assertThat(error.path("__type").asText()).isEqualTo("UnauthorizedException");
        return error.path("message").asText();
    }

    private static JsonNode machines() {
        RawHttp.Answer list = call("ListStateMachines", host, token, "{}");
        assertThat(list.status()).as("%s", list).isEqualTo(200);
        return list.json().path("stateMachines");
    }

    @Test
    void withoutThisRunsTokenOrUnderAForeignHostNothingIsAnsweredOrChanged() {
        JsonNode before = machines();
        assertThat(before).as("the profile deployed its workflows through the guarded listener").isNotEmpty();
        String create = "{\"name\":\"intruder\",\"definition\":\"{\\\"StartAt\\\":\\\"P\\\",\\\"States\\\":{\\\"P\\\":"
                + "{\\\"Type\\\":\\\"Pass\\\",\\\"End\\\":true}}}\",\"roleArn\":\"arn:aws:iam::000000000000:role/r\"}";
        assertThat(refusal(call("CreateStateMachine", host, null, create))).contains("X-Gamefleet-Local-Token");
        refusal(call("CreateStateMachine", host, token + "x", create));
        refusal(call("CreateStateMachine", host, "", create));
        String rebound = "gamefleet.attacker.example:" + host.substring(host.indexOf(':') + 1);
        assertThat(refusal(call("CreateStateMachine", rebound, token, create))).contains("Host")
                .contains("gamefleet.attacker.example");
        refusal(call("StartExecution", rebound, token, "{\"stateMachineArn\":\"" + before.get(0).path("stateMachineArn")
                .asText() + "\"}"));
        assertThat(raw.exchange("GET / HTTP/1.1\r\nHost: " + rebound + "\r\nConnection: close\r\n\r\n").status())
                .isEqualTo(403);

        assertThat(machines()).isEqualTo(before);
        RawHttp.Answer ready = raw.exchange("GET / HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
        assertThat(ready.status()).as("the readiness check needs no token: %s", ready).isEqualTo(200);
    }

    @Test
    void theProfilesWorkflowsRunThroughIt() {
        LOCAL.admin().createActive(GamefleetClient.groupBody("through-the-sidecar", 1, 1));
    }
}
