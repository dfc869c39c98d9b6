package io.gamefleet.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import io.gamefleet.catalog.FunctionAccess;
import io.gamefleet.catalog.Role;
import io.gamefleet.catalog.Routes;
import io.gamefleet.catalog.Settings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Peer regions (context peerRegions: PeerRegion, Functions.callPeers, CallerRoles.admitPeerForwarders):
 * the functions that call peers know them and may assume their MATCHMAKER roles alone, this stage's
 * MATCHMAKER role admits the peers' forwarding roles by ARN, the template refuses a peer's region, and
 * the outputs name what a peer's context needs. The class's stack has two peers, in two accounts.
 */
class PeerRegionsStackTest extends SynthesizedStack {
    static final String EU = "eu-west-1";
    static final String TOKYO = "ap-northeast-1";
    static final String EU_API = "https://a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com/";
    static final String TOKYO_API = "https://f6g7h8i9j0.execute-api.ap-northeast-1.amazonaws.com/";
    static final String EU_MATCHMAKER = "arn:aws:iam::111122223333:role/Gamefleet-prod-MatchmakerCallerRole9C7E1A2B-EU1";
    static final String TOKYO_MATCHMAKER = "arn:aws:iam::444455556666:role/Gamefleet-prod-MatchmakerCallerRole9C7E1A2B-AP1";
    static final List<String> EU_FORWARDERS = List.of("arn:aws:iam::111122223333:role/Gamefleet-prod-CreateSessionRole-EU2",
            "arn:aws:iam::111122223333:role/Gamefleet-prod-ListQosServersRole-EU3",
            "arn:aws:iam::111122223333:role/Gamefleet-prod-ListRegionsRole-EU4");
    static final List<String> TOKYO_FORWARDERS = List.of("arn:aws:iam::444455556666:role/Gamefleet-prod-CreateSessionRole-AP2",
            "arn:aws:iam::444455556666:role/Gamefleet-prod-ListQosServersRole-AP3",
            "arn:aws:iam::444455556666:role/Gamefleet-prod-ListRegionsRole-AP4");

    /** Context peerRegions as -c gives it: a JSON string. */
    static Map<String, Object> twoPeers() {
        return Map.of(DeploymentContext.PEER_REGIONS, json(peers()));
    }

    static List<Map<String, Object>> peers() {
        return List.of(peer(EU, EU_API, EU_MATCHMAKER, EU_FORWARDERS),
                peer(TOKYO, TOKYO_API, TOKYO_MATCHMAKER, TOKYO_FORWARDERS));
    }

    @Override
    Map<String, Object> context() {
        return twoPeers();
    }

    @Test
    void theFunctionsThatCallPeersKnowThemAndMayAssumeTheirMatchmakerRolesAlone() throws JsonProcessingException {
        List<Map<String, String>> expected = List.of(
                Map.of("Region", EU, "ApiUrl", EU_API, "MatchmakerRoleArn", EU_MATCHMAKER),
                Map.of("Region", TOKYO, "ApiUrl", TOKYO_API, "MatchmakerRoleArn", TOKYO_MATCHMAKER));
        for (String name : functionNames()) {
            Map<String, Object> variables = variables(resources.get(functionId(name)));
            List<Map<String, Object>> sts = stsStatementsOf(this, name);
            if (FunctionAccess.callsPeers(name)) {
                assertThat(JSON.readValue((String) variables.get(Settings.PEERS.environmentVariable()),
                        new TypeReference<List<Map<String, String>>>() {})).as(name).isEqualTo(expected);
                assertThat(variables.get(Settings.PEER_TIMEOUT_MILLIS.environmentVariable())).as(name)
                        .isEqualTo(Settings.PEER_TIMEOUT_MILLIS.defaultValue());
                assertThat(sts).as(name).hasSize(1);
                assertThat(actions(sts.get(0))).as(name).containsExactly("sts:AssumeRole");
                assertThat(resourcesOf(sts.get(0))).as(name).containsExactly(EU_MATCHMAKER, TOKYO_MATCHMAKER);
            } else {
                assertThat(variables).as(name).doesNotContainKey(Settings.PEERS.environmentVariable());
                assertThat(sts).as(name).isEmpty();
            }
        }
        assertThat(functionNames().stream().filter(FunctionAccess::callsPeers))
                .as("CreateSession, ListQosServers and ListRegions").hasSize(3);
    }

    @Test
    void theMatchmakerRoleAdmitsThePeersForwardingRolesByArnOnTheirAccounts() {
        List<Map<String, Object>> trust = trustOf(this, Role.MATCHMAKER);
        assertThat(trust).hasSize(2);
        assertThat(trust.get(0)).as("the account's own principals, as without peers")
                .doesNotContainKey("Condition").containsEntry("Action", "sts:AssumeRole");
        Map<String, Object> peers = trust.get(1);
        assertThat(peers).containsEntry("Sid", "AssumeFromPeerForwarders").containsEntry("Effect", "Allow")
                .containsEntry("Action", "sts:AssumeRole");
        assertThat(listOf(map(peers.get("Principal")).get("AWS")).stream().map(SynthesizedStack::render))
                .containsExactly("arn:<AWS::Partition>:iam::111122223333:root",
                        "arn:<AWS::Partition>:iam::444455556666:root");
        List<String> forwarders = new ArrayList<>(EU_FORWARDERS);
        forwarders.addAll(TOKYO_FORWARDERS);
        assertThat(peers.get("Condition")).isEqualTo(Map.of("ArnEquals", Map.of("aws:PrincipalArn", forwarders)));
        for (Role role : List.of(Role.ADMIN, Role.GAME_SERVER)) {
            assertThat(trustOf(this, role)).as(role.name()).hasSize(1);
        }
    }

    @Test
    void theTemplateRefusesToDeployInOneOfThePeersRegions() {
        Map<String, Object> rules = cast(template.toJSON().get("Rules"));
        assertThat(rules.get("PeerRegionsAreNotHome")).isEqualTo(Map.of("Assertions", List.of(Map.of(
                "Assert", Map.of("Fn::Not", List.of(Map.of("Fn::Contains",
                        List.of(List.of(EU, TOKYO), Map.of("Ref", "AWS::Region"))))),
                "AssertDescription", "context peerRegions names this stack's own region: name only the other regions'"
                        + " stages (eu-west-1, ap-northeast-1 are named)"))));
    }

    @Test
    void theOutputsNameTheApiTheMatchmakerRoleAndTheForwardingRoles() {
        assertOutputsNameWhatAPeerNeeds(this);
    }

    @Test
    void withoutPeersNoFunctionKnowsOrAssumesAnyAndOnlyTheOutputsAreThere() throws IOException {
        SynthesizedStack plain = new SynthesizedStack() {};
        plain.synthesize();
        for (String name : plain.functionNames()) {
            assertThat(variables(plain.resources.get(plain.functionId(name)))).as(name)
                    .doesNotContainKey(Settings.PEERS.environmentVariable());
            assertThat(stsStatementsOf(plain, name)).as(name).isEmpty();
        }
        assertThat(trustOf(plain, Role.MATCHMAKER)).hasSize(1);
        Map<String, Object> rules = cast(plain.template.toJSON().get("Rules"));
        assertThat(rules == null ? Set.of() : rules.keySet()).doesNotContain("PeerRegionsAreNotHome");
        assertOutputsNameWhatAPeerNeeds(plain);
        assertThat(stack(Map.of(DeploymentContext.PEER_REGIONS, "[]"))).as("an empty list: no peers").isNotNull();
    }

    /** cdk.json's list, a peer's forwarderRoleArns as the output's comma-separated string, a tuned budget. */
    @Test
    void peerRegionsMayBeAListAndTheForwardersTheOutputsValue() throws IOException {
        List<Map<String, Object>> peers = new ArrayList<>();
        for (Map<String, Object> peer : peers()) {
            Map<String, Object> asOutput = new LinkedHashMap<>(peer);
            asOutput.put(PeerRegion.FORWARDER_ROLE_ARNS,
                    String.join(",", SynthesizedStack.<List<String>>cast(peer.get(PeerRegion.FORWARDER_ROLE_ARNS))));
            peers.add(asOutput);
        }
        SynthesizedStack listed = new SynthesizedStack() {
            @Override
            Map<String, Object> context() {
                return Map.of(DeploymentContext.PEER_REGIONS, peers,
                        DeploymentContext.contextKey(Settings.PEER_TIMEOUT_MILLIS), "400");
            }
        };
        listed.synthesize();
        String createSession = Routes.CREATE_SESSION.functionName();
        Map<String, Object> variables = variables(listed.resources.get(listed.functionId(createSession)));
        assertThat(variables.get(Settings.PEERS.environmentVariable()))
                .isEqualTo(variables(resources.get(functionId(createSession))).get(Settings.PEERS.environmentVariable()));
        assertThat(variables.get(Settings.PEER_TIMEOUT_MILLIS.environmentVariable())).isEqualTo("400");
        assertThat(trustOf(listed, Role.MATCHMAKER)).isEqualTo(trustOf(this, Role.MATCHMAKER));
    }

    @Test
    void badPeerRegionsFailSynthesisNamingThePeerAndWhatIsWrong() {
        Map<String, String> refusals = new LinkedHashMap<>();
        refusals.put("[{\"region\": ", "context peerRegions is not JSON: ");
        refusals.put("{\"region\": \"eu-west-1\"}", "context peerRegions must be a JSON array of {\"region\", \"apiUrl\","
                + " \"matchmakerRoleArn\", \"forwarderRoleArns\"}, one per peer stage, not {\"region\":\"eu-west-1\"}");
        refusals.put("[42]", "context peerRegions must be a JSON array of {\"region\", \"apiUrl\", \"matchmakerRoleArn\","
                + " \"forwarderRoleArns\"}, one per peer stage: peer 1 is 42");
        refusals.put(json(List.of(without(peers().get(0), PeerRegion.REGION))), "context peerRegions: peer 1 has no \"region\"");
        refusals.put(json(List.of(without(peers().get(0), PeerRegion.API_URL))),
                "context peerRegions: peer eu-west-1 has no \"apiUrl\"");
        refusals.put(json(List.of(without(peers().get(0), PeerRegion.MATCHMAKER_ROLE_ARN))),
                "context peerRegions: peer eu-west-1 has no \"matchmakerRoleArn\"");
        refusals.put(json(List.of(without(peers().get(0), PeerRegion.FORWARDER_ROLE_ARNS))),
                "context peerRegions: peer eu-west-1 has no \"forwarderRoleArns\"");
        refusals.put(json(List.of(with(peers().get(0), p -> p.put("apiURL", EU_API)))),
                "context peerRegions: peer 1 has an unknown member \"apiURL\" (its members are region, apiUrl,"
                        + " matchmakerRoleArn, forwarderRoleArns)");
        refusals.put(json(List.of(with(peers().get(0), p -> p.put(PeerRegion.REGION, 7)))),
                "context peerRegions: peer 1's region must be a string, not 7");
        refusals.put(json(List.of(with(peers().get(0), p -> p.put(PeerRegion.REGION, "mars-north-1")))),
                "context peerRegions: peer 1's region mars-north-1 is none of the regions Gamefleet deploys to (");
        refusals.put(json(List.of(peers().get(0), with(peers().get(1), p -> p.put(PeerRegion.REGION, EU)))),
                "context peerRegions names region eu-west-1 twice");
        refusals.put(json(List.of(with(peers().get(0), p -> p.put(PeerRegion.API_URL, "http://127.0.0.1:4591")))),
                "context peerRegions: peer eu-west-1's apiUrl must be an https:// URL (the peer stack's output ApiUrl),"
                        + " not http://127.0.0.1:4591");
        refusals.put(json(List.of(with(peers().get(0), p -> p.put(PeerRegion.API_URL, "https://")))),
                "context peerRegions: peer eu-west-1's apiUrl must be an https:// URL");
        refusals.put(json(List.of(with(peers().get(0),
                        p -> p.put(PeerRegion.MATCHMAKER_ROLE_ARN, "arn:aws:iam::111122223333:user/matchmaker")))),
                "context peerRegions: peer eu-west-1's matchmakerRoleArn must be an IAM role ARN (the peer stack's output"
                        + " MatchmakerRoleArn), not arn:aws:iam::111122223333:user/matchmaker");
        refusals.put(json(List.of(with(peers().get(0), p -> p.put(PeerRegion.FORWARDER_ROLE_ARNS,
                        List.of(EU_FORWARDERS.get(0), "arn:aws:sts::111122223333:assumed-role/CreateSession/fn"))))),
                "context peerRegions: peer eu-west-1's forwarderRoleArns must list IAM role ARNs (the peer stack's output"
                        + " PeerForwarderRoleArns), not arn:aws:sts::111122223333:assumed-role/CreateSession/fn");
        refusals.put(json(List.of(with(peers().get(0), p -> p.put(PeerRegion.FORWARDER_ROLE_ARNS, List.of())))),
                "context peerRegions: peer eu-west-1's forwarderRoleArns must list IAM role ARNs (the peer stack's output"
                        + " PeerForwarderRoleArns): it names none");
        for (Map.Entry<String, String> refusal : refusals.entrySet()) {
            assertThatThrownBy(() -> stack(Map.of(DeploymentContext.PEER_REGIONS, refusal.getKey())))
                    .as(refusal.getKey()).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith(refusal.getValue());
        }
    }

    /** Two peers tried in turn get at most half the API functions' 20 s: 5 s each. */
    @Test
    void thePeersBudgetsTogetherLeaveTheApiFunctionsTimeoutRoom() {
        for (String budget : List.of("5001", "0")) {
            Map<String, Object> context = new HashMap<>(twoPeers());
            context.put(DeploymentContext.contextKey(Settings.PEER_TIMEOUT_MILLIS), budget);
            assertThatThrownBy(() -> stack(context)).as(budget).hasMessage("context peerTimeoutMillis must be 1 to 5000"
                    + " (ms) with 2 peers: together they get at most half the API functions' 20 s timeout, not " + budget);
        }
        Map<String, Object> context = new HashMap<>(twoPeers());
        context.put(DeploymentContext.contextKey(Settings.PEER_TIMEOUT_MILLIS), "5000");
        assertThat(stack(context)).isNotNull();
        assertThat(Functions.API_TIMEOUT.toMilliseconds().longValue())
                .as("the default budget leaves room for ten peers").isGreaterThanOrEqualTo(2 * 10 * 1000L);
    }

    // ---- helpers ----

    private static void assertOutputsNameWhatAPeerNeeds(SynthesizedStack stack) {
        Map<String, Map<String, Object>> outputs = cast(stack.template.toJSON().get("Outputs"));
        assertThat(outputs).containsKey("ApiUrl");
        String matchmaker = getAttId(variables(stack.resources.get(stack.functionId(Routes.JSON_DOOR.functionName())))
                .get(Settings.roleArn(Role.MATCHMAKER).environmentVariable()));
        assertThat(outputs.get("MatchmakerRoleArn").get("Value")).isEqualTo(Map.of("Fn::GetAtt", List.of(matchmaker, "Arn")));
        Set<String> callers = stack.functionNames().stream().filter(FunctionAccess::callsPeers)
                .map(name -> "<" + getAttId(props(stack.resources.get(stack.functionId(name))).get("Role")) + ".Arn>")
                .collect(Collectors.toSet());
        assertThat(Set.of(render(outputs.get("PeerForwarderRoleArns").get("Value")).split(","))).isEqualTo(callers);
    }

    private static List<Map<String, Object>> stsStatementsOf(SynthesizedStack stack, String functionName) {
        return stack.statementsOf(functionName).stream()
                .filter(s -> actions(s).stream().anyMatch(a -> a.startsWith("sts:"))).toList();
    }

    private static List<Map<String, Object>> trustOf(SynthesizedStack stack, Role role) {
        Map<String, Object> variables = variables(stack.resources.get(stack.functionId(Routes.JSON_DOOR.functionName())));
        String roleId = getAttId(variables.get(Settings.roleArn(role).environmentVariable()));
        return cast(map(props(stack.resources.get(roleId)).get("AssumeRolePolicyDocument")).get("Statement"));
    }

    private static Map<String, Object> peer(String region, String apiUrl, String matchmaker, List<String> forwarders) {
        Map<String, Object> peer = new LinkedHashMap<>();
        peer.put(PeerRegion.REGION, region);
        peer.put(PeerRegion.API_URL, apiUrl);
        peer.put(PeerRegion.MATCHMAKER_ROLE_ARN, matchmaker);
        peer.put(PeerRegion.FORWARDER_ROLE_ARNS, forwarders);
        return peer;
    }

    private static Map<String, Object> with(Map<String, Object> peer, Consumer<Map<String, Object>> change) {
        Map<String, Object> changed = new LinkedHashMap<>(peer);
        change.accept(changed);
        return changed;
    }

    private static Map<String, Object> without(Map<String, Object> peer, String member) {
        return with(peer, p -> p.remove(member));
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
