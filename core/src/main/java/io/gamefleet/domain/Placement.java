package io.gamefleet.domain;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where a session may be placed (PlayFab's RequestMultiplayerServer {@code PreferredRegions},
 * GameLift queues' player latencies with a cap): the regions to try, in order. With neither
 * member, the home region alone, as a session has always been placed.
 *
 * @param preferredRegions in preference order; empty: none given
 * @param latencies the client's measured latency to each region, in milliseconds; empty: none given
 * @param maxLatencyMs with latencies: a region measured above it, or not measured, is not tried
 */
public record Placement(List<String> preferredRegions, Map<String, Integer> latencies, Optional<Integer> maxLatencyMs) {
    public static final Placement HOME = new Placement(List.of(), Map.of(), Optional.empty());

    public Placement {
        preferredRegions = List.copyOf(preferredRegions);
        latencies = Map.copyOf(latencies);
    }

    /**
     * The regions to try, in order, of {@code home} and {@code peers}: the preferred regions in
     * their order (those a cap leaves out dropped), else the measured regions by lowest latency
     * (of one latency, in the order home then peers), else {@code home} alone. InvalidRequestException
     * naming the member for a region that is neither home nor a peer, a region named twice, a cap
     * without latencies, or a cap that leaves no region to try.
     */
    public List<String> order(String home, List<String> peers) {
        List<String> known = new ArrayList<>();
        known.add(home);
        known.addAll(peers);
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < preferredRegions.size(); i++) {
            String region = preferredRegions.get(i);
            if (!known.contains(region)) {
                throw unknown("PreferredRegions[" + i + "]", region, known);
            }
            if (!seen.add(region)) {
                throw GamefleetException.invalidRequest("PreferredRegions[" + i + "]: " + region + " is named twice");
            }
        }
        for (String region : latencies.keySet()) {
            if (!known.contains(region)) {
                throw unknown("Latencies." + region, region, known);
            }
        }
        if (maxLatencyMs.isPresent() && latencies.isEmpty()) {
            throw GamefleetException.invalidRequest("MaxLatencyMs: is a cap on Latencies, which are not given");
        }
        List<String> order;
        if (!preferredRegions.isEmpty()) {
            order = preferredRegions.stream().filter(this::underCap).toList();
        } else if (!latencies.isEmpty()) {
            order = known.stream().filter(latencies::containsKey).filter(this::underCap)
                    .sorted(Comparator.comparing(latencies::get)).toList();
        } else {
            return List.of(home);
        }
        if (order.isEmpty()) {
            throw GamefleetException.invalidRequest("MaxLatencyMs: no region is measured at or under "
                    + maxLatencyMs.orElseThrow() + " ms (Latencies: " + latencies + ")");
        }
        return order;
    }

    /** Whether the cap, if any, admits the region: measured, at or under it. */
    private boolean underCap(String region) {
        return maxLatencyMs.isEmpty() || (latencies.containsKey(region) && latencies.get(region) <= maxLatencyMs.get());
    }

    private static GamefleetException unknown(String member, String region, List<String> known) {
        return GamefleetException.invalidRequest(member + ": " + region + " is not a region of this deployment "
                + known + " (GET /regions lists them)");
    }
}
