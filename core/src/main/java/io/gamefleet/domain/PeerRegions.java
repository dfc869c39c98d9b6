package io.gamefleet.domain;

import io.gamefleet.domain.QosServers.QosServer;
import java.util.List;

/**
 * The stage's peers in other regions, each a Gamefleet stage of its own, called as a MATCHMAKER
 * of the peer's (implemented in io.gamefleet.adapters.peers): each call within the stage's peer
 * budget, whatever the peer does, so that a peer that is down or stalled costs a request at most
 * the budget.
 */
public interface PeerRegions {
    /** A peer: its region and its API's URL. */
    record Peer(String region, String apiUrl) {}

    /** What a peer answered a session request. */
    sealed interface Answer {
        /**
         * The peer claimed a server for the session, or answered the one it had: {@code body} is
         * the peer's answer as it sent it ({@code {"Session": {...}}}), its server's id read from it.
         */
        record Placed(String gameServerId, String body) implements Answer {}

        /** Anything else (an error, no answer within the budget): what it was, in a sentence. */
        record Refused(String said) implements Answer {}
    }

    /** The peers, in the order the stage names them; none when the stage has none. */
    List<Peer> peers();

    /**
     * The peer's CreateSession for the group of this name there, with the request's SessionId,
     * cookie, players and filter, placed in that region alone (the peer forwards it nowhere).
     */
    Answer createSession(String region, Session.Request request);

    /** The peer's own beacons (its ListQosServers of its region alone); none when it does not answer in time. */
    List<QosServer> qosServers(String region);

    /** No peers: a stage on its own. */
    PeerRegions NONE = new PeerRegions() {
        @Override
        public List<Peer> peers() {
            return List.of();
        }

        @Override
        public Answer createSession(String region, Session.Request request) {
            throw new IllegalArgumentException("no peer region " + region);
        }

        @Override
        public List<QosServer> qosServers(String region) {
            return List.of();
        }
    };
}
