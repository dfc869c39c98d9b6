package io.gamefleet.domain;

/** Where FleetIQ's metrics go: CloudWatch (embedded metric format) in AWS. */
public interface Metrics {

    /** The per-group gauges, published every balancer run. */
    void gameServers(String group, GameServerCounts counts);

    /** One Spot interruption of an instance of {@code instanceType} that hosted {@code gameServers}. */
    void interruption(String group, String instanceType, int gameServers);

    /** A {@code claimed}, {@code terminate} or {@code retiring} notice to an agent of {@code group} that reached none. */
    void undeliveredNotice(String group, String notice);

    /** The per-group gauges of the agents' processes, published every balancer run. */
    void processes(String group, ProcessCounts counts);

    /** Crashes and start timeouts one instance's agent reported, counted as its report is taken. */
    void processEvents(String group, ProcessEvents events);

    /**
     * Registered game servers by the PlayFab state their process last reported through its agent
     * (those that reported none, or Terminated, are in none of the four), and the players connected
     * to all of them.
     */
    record ProcessCounts(long initializing, long standingBy, long active, long terminating, long connectedPlayers) {}

    /**
     * Game servers by status. Available and utilized count every server of the group except those
     * on instances being interrupted; the draining counts are the part of each on DRAINING instances.
     */
    record GameServerCounts(long available, long utilized, long drainingAvailable, long drainingUtilized) {
        /** utilized ÷ (available + utilized) × 100; 0 for a group without game servers. */
        public double percentUtilized() {
            long all = available + utilized;
            return all == 0 ? 0 : 100.0 * utilized / all;
        }
    }
}
