package io.gamefleet.adapters.ec2;

import io.gamefleet.domain.Compute.ComputeException;
import io.gamefleet.domain.Compute.LaunchedInstance;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InstanceNetworkInterface;

/**
 * New instances as EC2's DescribeInstances gives them: their launch time, which their maximum
 * lifetime counts from (Auto Scaling does not report it), and their own addresses, the addresses
 * and DNS names, private and public, of every network interface, IPv4 and IPv6, which a game
 * server's ConnectionInfo must name. Asked by an {@code instance-id} filter, not by ids, so an
 * instance EC2 does not describe yet (just launched) is absent rather than failing the call.
 */
public final class Ec2Instances {
    /** A filter takes at most 200 values. */
    static final int IDS_PER_CALL = 200;
    static final Set<String> RETRYABLE_CODES = Set.of("RequestLimitExceeded", "Throttling", "Unavailable",
            "InternalError", "ServiceUnavailable");

    private final Ec2Client ec2;

    public Ec2Instances(Ec2Client ec2) {
        this.ec2 = ec2;
    }

    /**
     * Each described instance's launch time and addresses (in EC2's order, each once); an instance
     * EC2 does not know is left out.
     */
    public Map<String, LaunchedInstance> of(Collection<String> instanceIds) {
        List<String> ids = List.copyOf(new LinkedHashSet<>(instanceIds));
        Map<String, LaunchedInstance> found = new LinkedHashMap<>();
        for (int from = 0; from < ids.size(); from += IDS_PER_CALL) {
            List<String> part = ids.subList(from, Math.min(ids.size(), from + IDS_PER_CALL));
            try {
                ec2.describeInstancesPaginator(r -> r.filters(Filter.builder().name("instance-id").values(part).build()))
                        .reservations().forEach(reservation -> reservation.instances()
                                .forEach(i -> found.put(i.instanceId(), new LaunchedInstance(i.launchTime(),
                                        addresses(i)))));
            } catch (SdkException e) {
                throw failure(e);
            }
        }
        return found;
    }

    static List<String> addresses(Instance i) {
        Set<String> all = new LinkedHashSet<>();
        all.add(i.privateIpAddress());
        all.add(i.publicIpAddress());
        all.add(i.ipv6Address());
        all.add(i.privateDnsName());
        all.add(i.publicDnsName());
        for (InstanceNetworkInterface n : i.networkInterfaces()) {
            n.privateIpAddresses().forEach(p -> {
                all.add(p.privateIpAddress());
                if (p.association() != null) {
                    all.add(p.association().publicIp());
                    all.add(p.association().publicDnsName());
                }
                all.add(p.privateDnsName());
            });
            n.ipv6Addresses().forEach(a -> all.add(a.ipv6Address()));
        }
        List<String> addresses = new ArrayList<>();
        all.stream().filter(a -> a != null && !a.isBlank()).forEach(addresses::add);
        return addresses;
    }

    private static ComputeException failure(SdkException e) {
        String code = e instanceof AwsServiceException s && s.awsErrorDetails() != null ? s.awsErrorDetails().errorCode() : null;
        boolean retryable = e.retryable() || (code != null && RETRYABLE_CODES.contains(code));
        String message = e instanceof AwsServiceException s && s.awsErrorDetails() != null
                && s.awsErrorDetails().errorMessage() != null
                ? "EC2 refused to describe instances: " + s.awsErrorDetails().errorMessage()
                : "Could not reach EC2 to describe instances: " + e.getMessage();
        return new ComputeException(message, retryable, e);
    }
}
