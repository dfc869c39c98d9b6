package io.gamefleet.domain;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * Addresses to ping for latency (PlayFab's ListQosServersForTitle): a few ACTIVE instances whose
 * agent is connected with a QoS beacon ({@link GameServerInstance#qosPort}), chosen at random on
 * each call so that clients spread over them. The connection stands for the beacon: both are the
 * agent's, and the port is cleared with the connection.
 *
 * <p>Its cost is bounded whatever the fleet's size: one page of {@link #GROUPS_READ} groups, and of
 * their ACTIVE groups at most {@link #GROUPS_QUERIED} (at random), one page of
 * {@link #INSTANCES_PER_GROUP} instances each.
 */
public final class QosServers {
    /** How many addresses one answer lists. */
    public static final int LISTED = 3;
    public static final int GROUPS_READ = 100;
    public static final int GROUPS_QUERIED = 10;
    public static final int INSTANCES_PER_GROUP = 100;

    /** An address and UDP port to ping. */
    public record QosServer(String address, int port) {}

    private final GroupRepository groups;
    private final InstanceRepository instances;
    private final Random random;
    private final Clock clock;

    /** {@code random}: thread-safe where calls run concurrently (the local profile's). */
    public QosServers(GroupRepository groups, InstanceRepository instances, Random random, Clock clock) {
        this.groups = groups;
        this.instances = instances;
        this.random = random;
        this.clock = clock;
    }

    /** Up to {@link #LISTED} beacons, each on a different instance; none when no instance has one. */
    public List<QosServer> list() {
        List<String> active = new ArrayList<>(groups.list(GROUPS_READ, Optional.empty()).items().stream()
                .filter(g -> g.status() == GameServerGroupStatus.ACTIVE).map(GameServerGroup::name).toList());
        Collections.shuffle(active, random);
        Instant now = clock.instant();
        List<QosServer> beacons = new ArrayList<>();
        for (String group : active.subList(0, Math.min(GROUPS_QUERIED, active.size()))) {
            for (GameServerInstance i : instances.list(group, INSTANCES_PER_GROUP, Optional.empty()).items()) {
                if (i.instanceStatus() == InstanceStatus.ACTIVE && i.qosPort() != null
                        && i.openPushConnection(now).isPresent() && !i.addresses().isEmpty()) {
                    beacons.add(new QosServer(address(i.addresses()), i.qosPort()));
                }
            }
        }
        Collections.shuffle(beacons, random);
        return List.copyOf(beacons.subList(0, Math.min(LISTED, beacons.size())));
    }

    /**
     * The address clients reach the instance at: its public IPv4, else its public DNS name, else
     * the first of its addresses (the local profile's 127.0.0.1). EC2's private DNS names end in
     * {@code .internal}.
     */
    static String address(List<String> addresses) {
        return addresses.stream().filter(QosServers::isPublicIpv4).findFirst()
                .or(() -> addresses.stream().filter(a -> !isIpLiteral(a) && !a.endsWith(".internal")
                        && !a.equals("localhost")).findFirst())
                .orElse(addresses.get(0));
    }

    private static boolean isIpLiteral(String address) {
        return address.contains(":") || address.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
    }

    /** An IPv4 literal outside the private, shared (CGNAT), loopback and link-local ranges. */
    static boolean isPublicIpv4(String address) {
        if (!address.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}")) {
            return false;
        }
        String[] octets = address.split("\\.");
        int a = Integer.parseInt(octets[0]);
        int b = Integer.parseInt(octets[1]);
        return !(a == 10 || a == 127 || a == 0 || (a == 172 && b >= 16 && b <= 31) || (a == 192 && b == 168)
                || (a == 169 && b == 254) || (a == 100 && b >= 64 && b <= 127));
    }
}
