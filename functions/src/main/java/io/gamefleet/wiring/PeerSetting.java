package io.gamefleet.wiring;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.catalog.Settings;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** One peer of {@link Settings#PEERS}: its region, its API's URL and, in AWS, its MATCHMAKER role. */
record PeerSetting(String region, URI apiUrl, Optional<String> matchmakerRoleArn) {

    /** The setting's peers, none when it is blank; a malformed one is an IllegalStateException naming it. */
    static List<PeerSetting> parse(String value) {
        if (value == null || value.isBlank()) {
            return List.of();
        }
        String name = Settings.PEERS.environmentVariable();
        JsonNode list;
        try {
            list = new ObjectMapper().readTree(value);
        } catch (IOException e) {
            throw new IllegalStateException(name + " is not JSON: " + e.getMessage());
        }
        if (list == null || !list.isArray()) {
            throw new IllegalStateException(name + " must be a JSON array of {\"Region\", \"ApiUrl\", \"MatchmakerRoleArn\"}");
        }
        List<PeerSetting> peers = new ArrayList<>();
        Set<String> regions = new HashSet<>();
        for (JsonNode p : list) {
            if (!p.path("Region").isTextual() || !p.path("ApiUrl").isTextual()) {
                throw new IllegalStateException(name + ": each peer needs a Region and an ApiUrl: " + p);
            }
            URI url = URI.create(p.get("ApiUrl").asText());
            if (!"https".equals(url.getScheme()) && !"http".equals(url.getScheme())) {
                throw new IllegalStateException(name + ": ApiUrl must be an http(s) URL: " + p);
            }
            if (!regions.add(p.get("Region").asText())) {
                throw new IllegalStateException(name + ": region " + p.get("Region").asText() + " is named twice");
            }
            peers.add(new PeerSetting(p.get("Region").asText(), url,
                    Optional.ofNullable(p.get("MatchmakerRoleArn")).filter(JsonNode::isTextual).map(JsonNode::asText)));
        }
        return peers;
    }
}
