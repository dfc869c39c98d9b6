package io.gamefleet.domain;

/** Where FleetIQ's metrics go: CloudWatch (embedded metric format) in AWS. */
public interface Metrics {

    /** The per-group gauges, published every balancer run. */
    void gameServers(String group, GameServerCounts counts);

    /** One Spot interruption of an instance of {@code instanceType} that hosted {@code gameServers}. */
    void interruption(String group, String instanceType, int gameServers);

    /** A {@code claimed} or {@code terminate} notice of a game server of {@code group} that reached no agent. */
    void undeliveredNotice(String group, String notice);

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
