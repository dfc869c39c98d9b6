package io.gamefleet.adapters.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.domain.Compute.ComputeException;
import io.gamefleet.domain.Compute.LaunchedInstance;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesRequest;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesResponse;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InstanceIpv6Address;
import software.amazon.awssdk.services.ec2.model.InstanceNetworkInterface;
import software.amazon.awssdk.services.ec2.model.InstanceNetworkInterfaceAssociation;
import software.amazon.awssdk.services.ec2.model.InstancePrivateIpAddress;
import software.amazon.awssdk.services.ec2.model.Reservation;

/** New instances as EC2 describes them: launch time and addresses. */
class Ec2InstancesTest {
    /** An instance with a public address, a second private one and an IPv6 address on its interface. */
    private static final Instant LAUNCHED = Instant.parse("2026-11-30T11:58:02Z");
    private static final Instance DUAL_STACK = Instance.builder().instanceId("i-0aaaaaaaaaaaaaaa1").launchTime(LAUNCHED)
            .privateIpAddress("10.0.3.7").publicIpAddress("54.20.1.9").ipv6Address("2600:1f18:abc:1::7")
            .privateDnsName("ip-10-0-3-7.ec2.internal").publicDnsName("ec2-54-20-1-9.compute-1.amazonaws.com")
            .networkInterfaces(InstanceNetworkInterface.builder()
                    .privateIpAddresses(InstancePrivateIpAddress.builder().privateIpAddress("10.0.3.7")
                                    .privateDnsName("ip-10-0-3-7.ec2.internal")
                                    .association(InstanceNetworkInterfaceAssociation.builder().publicIp("54.20.1.9")
                                            .publicDnsName("ec2-54-20-1-9.compute-1.amazonaws.com").build()).build(),
                            InstancePrivateIpAddress.builder().privateIpAddress("10.0.3.8").build())
                    .ipv6Addresses(InstanceIpv6Address.builder().ipv6Address("2600:1f18:abc:1::7").build()).build())
            .build();
    /** Private only: no public address, an empty public DNS name (as EC2 gives it). */
    private static final Instance PRIVATE = Instance.builder().instanceId("i-0aaaaaaaaaaaaaaa2").launchTime(LAUNCHED.plusSeconds(9))
            .privateIpAddress("10.0.3.9").privateDnsName("ip-10-0-3-9.ec2.internal").publicDnsName("").build();

    @Test
    void everyAddressAndNameOfTheInstanceOnceAndAnUnknownInstanceLeftOut() {
        FakeEc2 ec2 = new FakeEc2(List.of(List.of(DUAL_STACK), List.of(PRIVATE)));

        Map<String, LaunchedInstance> found = new Ec2Instances(ec2).of(List.of("i-0aaaaaaaaaaaaaaa1",
                "i-0aaaaaaaaaaaaaaa2", "i-0aaaaaaaaaaaaaaa3", "i-0aaaaaaaaaaaaaaa1"));

        assertThat(found).containsOnlyKeys("i-0aaaaaaaaaaaaaaa1", "i-0aaaaaaaaaaaaaaa2");
        assertThat(found.get("i-0aaaaaaaaaaaaaaa1").addresses()).containsExactly("10.0.3.7", "54.20.1.9",
                "2600:1f18:abc:1::7", "ip-10-0-3-7.ec2.internal", "ec2-54-20-1-9.compute-1.amazonaws.com", "10.0.3.8");
        assertThat(found.get("i-0aaaaaaaaaaaaaaa2").addresses()).containsExactly("10.0.3.9", "ip-10-0-3-9.ec2.internal");
        // EC2's own launch time, which the instance's maximum lifetime counts from.
        assertThat(found.get("i-0aaaaaaaaaaaaaaa1").launchTime()).isEqualTo(LAUNCHED);
        assertThat(found.get("i-0aaaaaaaaaaaaaaa2").launchTime()).isEqualTo(LAUNCHED.plusSeconds(9));
        // By a filter (an unknown id is no error), each id once, both pages read.
        assertThat(ec2.requests).hasSize(2);
        assertThat(ec2.requests.get(0).instanceIds()).isEmpty();
        assertThat(ec2.requests.get(0).filters()).singleElement().satisfies(f -> {
            assertThat(f.name()).isEqualTo("instance-id");
            assertThat(f.values()).containsExactly("i-0aaaaaaaaaaaaaaa1", "i-0aaaaaaaaaaaaaaa2", "i-0aaaaaaaaaaaaaaa3");
        });
        assertThat(ec2.requests.get(1).nextToken()).isEqualTo("page-1");
    }

    @Test
    void moreIdsThanAFilterTakesAreAskedInParts() {
        FakeEc2 ec2 = new FakeEc2(List.of(List.of(), List.of()));
        List<String> ids = IntStream.range(0, 250).mapToObj(n -> String.format("i-%017d", n)).toList();
        new Ec2Instances(ec2).of(ids);
        assertThat(ec2.requests).extracting(r -> r.filters().get(0).values().size()).containsExactly(200, 50);
    }

    @Test
    void aFailureSaysWhatFailedAndWhetherToRetry() {
        FakeEc2 ec2 = new FakeEc2(List.of());
        ec2.failure = AwsServiceException.builder().statusCode(503)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("RequestLimitExceeded").errorMessage("slow down").build())
                .build();
        ComputeException e = catchThrowableOfType(ComputeException.class,
                () -> new Ec2Instances(ec2).of(List.of("i-0aaaaaaaaaaaaaaa1")));
        assertThat(e).hasMessage("EC2 refused to describe instances: slow down").hasCauseReference(ec2.failure);
        assertThat(e.retryable()).isTrue();

        ec2.failure = AwsServiceException.builder().statusCode(403)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("UnauthorizedOperation").errorMessage("no").build())
                .build();
        assertThat(catchThrowableOfType(ComputeException.class,
                () -> new Ec2Instances(ec2).of(List.of("i-0aaaaaaaaaaaaaaa1"))).retryable()).isFalse();
    }

    /** Answers each request with the next page of instances (a next token while pages are left), or throws {@link #failure}. */
    private static final class FakeEc2 implements Ec2Client {
        final List<DescribeInstancesRequest> requests = new ArrayList<>();
        final List<List<Instance>> pages;
        AwsServiceException failure;

        FakeEc2(List<List<Instance>> pages) {
            this.pages = pages;
        }

        @Override
        public DescribeInstancesResponse describeInstances(DescribeInstancesRequest r) {
            requests.add(r);
            if (failure != null) {
                throw failure;
            }
            int page = requests.size() - 1;
            boolean more = r.filters().get(0).values().size() < 200 && page + 1 < pages.size();
            return DescribeInstancesResponse.builder()
                    .reservations(Reservation.builder().instances(page < pages.size() ? pages.get(page) : List.of()).build())
                    .nextToken(more ? "page-" + (page + 1) : null).build();
        }

        @Override
        public String serviceName() {
            return SERVICE_NAME;
        }

        @Override
        public void close() {}
    }
}
