package io.gamefleet.adapters.ec2;

import io.gamefleet.adapters.compute.ComputeFailures;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.NetworkInterface;
import software.amazon.awssdk.services.ec2.model.NetworkInterfacePrivateIpAddress;

/**
 * The public addresses of network interfaces, as EC2's DescribeNetworkInterfaces gives them: an ECS
 * task's own interface has its public IPv4 address and DNS name there only (ECS names its private
 * ones), which a game server's ConnectionInfo may name. Asked by a {@code network-interface-id}
 * filter, so an interface EC2 does not describe is absent rather than failing the call.
 */
public final class Ec2NetworkInterfaces {
    private static final ComputeFailures FAILURES = new ComputeFailures("EC2", Ec2Instances.RETRYABLE_CODES);

    private final Ec2Client ec2;

    public Ec2NetworkInterfaces(Ec2Client ec2) {
        this.ec2 = ec2;
    }

    /** Each described interface's public addresses and DNS names (none for an interface without). */
    public Map<String, List<String>> publicAddresses(Collection<String> networkInterfaceIds) {
        List<String> ids = List.copyOf(new LinkedHashSet<>(networkInterfaceIds));
        Map<String, List<String>> found = new LinkedHashMap<>();
        for (int from = 0; from < ids.size(); from += Ec2Instances.IDS_PER_CALL) {
            List<String> part = ids.subList(from, Math.min(ids.size(), from + Ec2Instances.IDS_PER_CALL));
            FAILURES.call("describe network interfaces", String.join(",", part), () -> {
                ec2.describeNetworkInterfacesPaginator(
                        r -> r.filters(Filter.builder().name("network-interface-id").values(part).build()))
                        .networkInterfaces().forEach(n -> found.put(n.networkInterfaceId(), publicAddresses(n)));
                return found;
            });
        }
        return found;
    }

    private static List<String> publicAddresses(NetworkInterface n) {
        LinkedHashSet<String> all = new LinkedHashSet<>();
        for (NetworkInterfacePrivateIpAddress p : n.privateIpAddresses()) {
            if (p.association() != null) {
                all.add(p.association().publicIp());
                all.add(p.association().publicDnsName());
            }
        }
        if (n.association() != null) {
            all.add(n.association().publicIp());
            all.add(n.association().publicDnsName());
        }
        return all.stream().filter(Objects::nonNull).filter(a -> !a.isBlank()).toList();
    }
}
