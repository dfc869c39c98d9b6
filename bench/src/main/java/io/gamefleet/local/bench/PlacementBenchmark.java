package io.gamefleet.local.bench;

import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.GameServerService.Registration;
import io.gamefleet.local.LocalProfile;
import io.gamefleet.local.LocalRegions;
import io.gamefleet.local.edge.EdgeServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Sessions placed across two peered local regions ({@code local/run --regions}'s profiles, one JVM):
 * us-east-1, the home every request is sent to, and eu-west-1, each with one group of
 * {@code servers} AVAILABLE game servers. CreateSession requests through the home's edge, signed
 * with SigV4, one at a time, a preference mix in turn: one preferring the home (placed there), one
 * preferring eu-west-1 (forwarded, signed again by the home's function for eu-west-1). Then, with
 * eu-west-1 out ({@code POST /_local/regions/eu-west-1/outage}: its edge holds each request
 * unanswered), requests preferring eu-west-1, each placed at home once the peer budget (1 s) ends.
 * It prints each kind's p50, p99 and most (milliseconds, the client's whole request), where each was
 * placed, and each region's claimed servers against the sessions answered: none claimed twice.
 *
 * <p>Run from the repository's top folder: {@code PlacementBenchmark [sessions of each kind, 200]
 * [servers per region, 500] [sessions during the outage, 20]}.
 */
public final class PlacementBenchmark {
    private static final String HOME = "us-east-1";
    private static final String PEER = "eu-west-1";
    private static final String GROUP = "placement";

    private PlacementBenchmark() {}

    public static void main(String[] args) throws Exception {
        int perKind = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int servers = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        int duringOutage = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        if (servers < perKind + duringOutage) {
            throw new IllegalArgumentException("each region needs a server for each session it may place: servers >= "
                    + (perKind + duringOutage));
        }
        LocalProfile.Options base = Benchmarks.options(List.of(), Optional.empty(), Duration.ZERO, Duration.ZERO);
        try (LocalRegions run = LocalRegions.start(base, List.of(HOME, PEER))) {
            Runtime.getRuntime().addShutdownHook(new Thread(run::close, "bench-regions-close"));
            for (String region : List.of(HOME, PEER)) {
                LocalProfile profile = run.profile(region);
                Benchmarks.createActive(profile, GROUP, 1, 1, List.of("c5.large", "m5.large"));
                GameServerInstance instance = profile.services().groups()
                        .describeInstances(GROUP, Optional.empty(), 1, Optional.empty()).items().get(0);
                for (int i = 0; i < servers; i++) {
                    profile.services().gameServers().register(new Registration(GROUP, region + "-" + i,
                            instance.instanceId(), Optional.of("127.0.0.1:" + (7000 + i % 1000)), Optional.empty()),
                            Caller.UNBOUND);
                }
            }
            System.out.printf("placement: %s (home) and %s, %d servers each, %d sessions of each kind, then %d with %s"
                    + " out; the peer budget %s ms%n", HOME, PEER, servers, perKind, duringOutage, PEER,
                    io.gamefleet.catalog.Settings.PEER_TIMEOUT_MILLIS.defaultValue());
            EdgeRequests home = new EdgeRequests(run.profile(HOME).endpoint());
            Map<String, Benchmarks.Latencies> kinds = new TreeMap<>();
            Map<String, Map<String, Integer>> placedIn = new TreeMap<>();
            int answered = 0;
            for (int i = 0; i < 2 * perKind; i++) {
                boolean stays = i % 2 == 0;
                answered += place(home, stays ? "stays home" : "forwarded", stays ? List.of(HOME, PEER) : List.of(PEER, HOME),
                        kinds, placedIn);
            }
            outage(run, "outage");
            for (int i = 0; i < duringOutage; i++) {
                answered += place(home, "preferred region out", List.of(PEER, HOME), kinds, placedIn);
            }
            outage(run, "recover");
            kinds.forEach((kind, l) -> System.out.printf("  %-22s %4d sessions: p50 %7.1f ms, p99 %7.1f ms, most %7.1f ms;"
                    + " placed in %s%n", kind, l.count(), l.percentile(0.5), l.percentile(0.99), l.percentile(1.0),
                    placedIn.get(kind)));
            long claimed = 0;
            for (String region : List.of(HOME, PEER)) {
                long here = claimed(run.profile(region));
                claimed += here;
                System.out.printf("  %s: %d servers claimed%n", region, here);
            }
            System.out.printf("  %d sessions answered, %d servers claimed in all%s%n", answered, claimed,
                    claimed == answered ? ": none claimed twice" : ": MORE CLAIMS THAN SESSIONS");
        }
    }

    /** The group's servers that were ever claimed (their last claim time set), every page of them. */
    private static long claimed(LocalProfile profile) {
        long claimed = 0;
        Optional<String> token = Optional.empty();
        do {
            var page = profile.services().gameServers().list(GROUP, Optional.empty(), 100, token);
            claimed += page.items().stream().filter(s -> s.lastClaimTime() != null).count();
            token = page.cursor();
        } while (token.isPresent());
        return claimed;
    }

    /** One session request; 1 when it was answered 200. */
    private static int place(EdgeRequests home, String kind, List<String> preferred,
            Map<String, Benchmarks.Latencies> kinds, Map<String, Map<String, Integer>> placedIn) throws Exception {
        String body = "{\"SessionId\":\"" + UUID.randomUUID() + "\",\"PreferredRegions\":[\"" + String.join("\",\"", preferred)
                + "\"]}";
        long start = System.nanoTime();
        EdgeRequests.Answer answer = home.send("POST", "/game-server-groups/" + GROUP + "/sessions", body);
        kinds.computeIfAbsent(kind, k -> new Benchmarks.Latencies()).add(System.nanoTime() - start);
        String where = answer.status() == 200 ? answer.body().path("Session").path("Region").asText("?")
                : answer.status() + " " + answer.body().path("__type").asText();
        placedIn.computeIfAbsent(kind, k -> new TreeMap<>()).merge(where, 1, Integer::sum);
        return answer.status() == 200 ? 1 : 0;
    }

    /** {@code action} "outage" or "recover" of the peer, through the home's edge with the run's local token. */
    private static void outage(LocalRegions run, String action) throws Exception {
        LocalProfile home = run.profile(HOME);
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(home.endpoint() + "/_local/regions/" + PEER + "/" + action))
                .header(EdgeServer.LOCAL_TOKEN_HEADER, home.localToken())
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(action + " of " + PEER + " answered " + r.statusCode() + " " + r.body());
        }
    }
}
