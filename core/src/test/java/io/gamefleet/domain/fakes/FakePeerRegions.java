package io.gamefleet.domain.fakes;

import io.gamefleet.domain.PeerRegions;
import io.gamefleet.domain.QosServers.QosServer;
import io.gamefleet.domain.Session;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** Peers that answer as each test says, and remember what they were asked ({@link #asked}). */
public final class FakePeerRegions implements PeerRegions {
    /** A session request a peer was asked. */
    public record Asked(String region, Session.Request request) {}

    private final Map<String, Peer> peers = new LinkedHashMap<>();
    private final Map<String, Function<Session.Request, Answer>> sessions = new LinkedHashMap<>();
    private final Map<String, List<QosServer>> beacons = new LinkedHashMap<>();
    public final List<Asked> asked = new CopyOnWriteArrayList<>();

    /** A peer that answers each session request with {@code answer}, and lists no beacon. */
    public synchronized FakePeerRegions add(String region, Function<Session.Request, Answer> answer) {
        peers.put(region, new Peer(region, "https://api." + region + ".example"));
        sessions.put(region, answer);
        beacons.put(region, List.of());
        return this;
    }

    public synchronized void answer(String region, Function<Session.Request, Answer> answer) {
        sessions.put(region, answer);
    }

    public synchronized void beacons(String region, List<QosServer> listed) {
        beacons.put(region, List.copyOf(listed));
    }

    @Override
    public synchronized List<Peer> peers() {
        return new ArrayList<>(peers.values());
    }

    @Override
    public Answer createSession(String region, Session.Request request) {
        Function<Session.Request, Answer> answer;
        synchronized (this) {
            answer = sessions.get(region);
        }
        if (answer == null) {
            throw new IllegalArgumentException("no peer region " + region);
        }
        asked.add(new Asked(region, request));
        return answer.apply(request);
    }

    @Override
    public synchronized List<QosServer> qosServers(String region) {
        return beacons.getOrDefault(region, List.of());
    }
}
