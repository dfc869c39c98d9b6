package io.gamefleet.infra;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.gamefleet.catalog.Settings;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.CfnRule;
import software.amazon.awscdk.CfnRuleAssertion;
import software.amazon.awscdk.Fn;
import software.constructs.Construct;

/**
 * One peer stage of context {@value DeploymentContext#PEER_REGIONS}, as its own stack's outputs name
 * it: its region, its HTTP API's URL ({@code ApiUrl}), its MATCHMAKER role ({@code MatchmakerRoleArn}),
 * which this stage's peer-calling functions assume to sign their calls to that API, and the roles of
 * its own peer-calling functions ({@code PeerForwarderRoleArns}), which call into this stage by
 * assuming this stage's MATCHMAKER role.
 */
record PeerRegion(String region, String apiUrl, String matchmakerRoleArn, List<String> forwarderRoleArns) {
    static final String REGION = "region";
    static final String API_URL = "apiUrl";
    static final String MATCHMAKER_ROLE_ARN = "matchmakerRoleArn";
    static final String FORWARDER_ROLE_ARNS = "forwarderRoleArns";
    private static final List<String> MEMBERS = List.of(REGION, API_URL, MATCHMAKER_ROLE_ARN, FORWARDER_ROLE_ARNS);
    private static final String KEY = "context " + DeploymentContext.PEER_REGIONS;
    private static final String SHAPE = KEY + " must be a JSON array of {\"region\", \"apiUrl\", \"matchmakerRoleArn\","
            + " \"forwarderRoleArns\"}, one per peer stage";
    private static final ObjectMapper JSON = new ObjectMapper();

    PeerRegion {
        forwarderRoleArns = List.copyOf(forwarderRoleArns);
    }

    /**
     * The context value's peers, in its order; none when it is absent, blank or {@code []}. A JSON
     * string ({@code -c peerRegions='[...]'}) or a list ({@code cdk.json}); a peer's
     * {@code forwarderRoleArns} a list, or the output's comma-separated string as it is. Anything
     * malformed is refused, naming the peer and the member. That no peer is in the stage's own region
     * is checked by the template ({@link #refuseHomeRegion}): the stack is region-agnostic.
     */
    static List<PeerRegion> parse(Object value) {
        JsonNode list = json(value);
        if (list == null) {
            return List.of();
        }
        if (!list.isArray()) {
            throw new IllegalArgumentException(SHAPE + ", not " + list);
        }
        List<PeerRegion> peers = new ArrayList<>();
        Set<String> regions = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            PeerRegion peer = peer(list.get(i), "peer " + (i + 1));
            if (!regions.add(peer.region())) {
                throw new IllegalArgumentException(KEY + " names region " + peer.region() + " twice");
            }
            peers.add(peer);
        }
        return List.copyOf(peers);
    }

    /** {@link Settings#PEERS}' value: {@code [{"Region", "ApiUrl", "MatchmakerRoleArn"}]}, in the context's order. */
    static String setting(List<PeerRegion> peers) {
        ArrayNode out = JSON.createArrayNode();
        for (PeerRegion peer : peers) {
            out.addObject().put("Region", peer.region()).put("ApiUrl", peer.apiUrl())
                    .put("MatchmakerRoleArn", peer.matchmakerRoleArn());
        }
        return out.toString();
    }

    /** The account of an IAM role ARN ({@code arn:<partition>:iam::<account>:role/...}). */
    static String accountOf(String roleArn) {
        return roleArn.split(":")[4];
    }

    /**
     * A template rule that refuses the stack in one of its peers' regions, before CloudFormation
     * changes anything: a stage is no peer of its own, and forwarding to itself would only loop back.
     */
    static void refuseHomeRegion(Construct scope, List<PeerRegion> peers) {
        List<String> regions = peers.stream().map(PeerRegion::region).toList();
        CfnRule.Builder.create(scope, "PeerRegionsAreNotHome")
                .assertions(List.of(CfnRuleAssertion.builder()
                        .assertValue(Fn.conditionNot(Fn.conditionContains(regions, Aws.REGION)))
                        .assertDescription(KEY + " names this stack's own region: name only the other regions' stages ("
                                + String.join(", ", regions) + " are named)")
                        .build()))
                .build();
    }

    private static JsonNode json(Object value) {
        if (value == null || value instanceof String s && s.isBlank()) {
            return null;
        }
        if (value instanceof String s) {
            try {
                return JSON.readTree(s);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(KEY + " is not JSON: " + e.getOriginalMessage());
            }
        }
        return JSON.valueToTree(value);
    }

    private static PeerRegion peer(JsonNode p, String which) {
        if (!p.isObject()) {
            throw new IllegalArgumentException(SHAPE + ": " + which + " is " + p);
        }
        for (Iterator<String> names = p.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!MEMBERS.contains(name)) {
                throw new IllegalArgumentException(KEY + ": " + which + " has an unknown member \"" + name
                        + "\" (its members are " + String.join(", ", MEMBERS) + ")");
            }
        }
        String region = text(p, REGION, which);
        if (!SupportedRegions.ALL.contains(region)) {
            throw new IllegalArgumentException(KEY + ": " + which + "'s region " + region
                    + " is none of the regions Gamefleet deploys to (" + String.join(", ", SupportedRegions.ALL) + ")");
        }
        String peer = "peer " + region;
        String apiUrl = text(p, API_URL, peer);
        if (!isHttpsUrl(apiUrl)) {
            throw new IllegalArgumentException(KEY + ": " + peer + "'s apiUrl must be an https:// URL (the peer stack's"
                    + " output ApiUrl), not " + apiUrl);
        }
        String matchmaker = text(p, MATCHMAKER_ROLE_ARN, peer);
        if (!DeploymentContext.ROLE_ARN.matcher(matchmaker).matches()) {
            throw new IllegalArgumentException(KEY + ": " + peer + "'s matchmakerRoleArn must be an IAM role ARN (the"
                    + " peer stack's output MatchmakerRoleArn), not " + matchmaker);
        }
        List<String> forwarders = forwarders(p.get(FORWARDER_ROLE_ARNS), peer);
        return new PeerRegion(region, apiUrl, matchmaker, forwarders);
    }

    /** A JSON array of role ARNs, or one string of them, comma-separated (the output's value). */
    private static List<String> forwarders(JsonNode value, String peer) {
        String what = KEY + ": " + peer + "'s forwarderRoleArns must list IAM role ARNs (the peer stack's output"
                + " PeerForwarderRoleArns)";
        List<String> arns = new ArrayList<>();
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException(KEY + ": " + peer + " has no \"" + FORWARDER_ROLE_ARNS + "\"");
        } else if (value.isTextual()) {
            for (String arn : value.asText().split(",")) {
                if (!arn.isBlank()) {
                    arns.add(arn.trim());
                }
            }
        } else if (value.isArray()) {
            for (JsonNode arn : value) {
                if (!arn.isTextual()) {
                    throw new IllegalArgumentException(what + ", not " + arn);
                }
                arns.add(arn.asText().trim());
            }
        } else {
            throw new IllegalArgumentException(what + ", not " + value);
        }
        if (arns.isEmpty()) {
            throw new IllegalArgumentException(what + ": it names none");
        }
        for (String arn : arns) {
            if (!DeploymentContext.ROLE_ARN.matcher(arn).matches()) {
                throw new IllegalArgumentException(what + ", not " + arn);
            }
        }
        return arns;
    }

    private static String text(JsonNode p, String member, String which) {
        JsonNode value = p.get(member);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException(KEY + ": " + which + " has no \"" + member + "\"");
        }
        if (!value.isTextual() || value.asText().isBlank()) {
            throw new IllegalArgumentException(KEY + ": " + which + "'s " + member + " must be a string, not " + value);
        }
        return value.asText().trim();
    }

    /** https://host[:port][/path], nothing else: the peer's calls go to its routes below it. */
    private static boolean isHttpsUrl(String url) {
        try {
            URI uri = new URI(url);
            return "https".equals(uri.getScheme()) && uri.getHost() != null && uri.getUserInfo() == null
                    && uri.getQuery() == null && uri.getFragment() == null;
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
