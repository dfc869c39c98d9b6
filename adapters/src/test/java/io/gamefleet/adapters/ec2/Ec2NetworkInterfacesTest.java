package io.gamefleet.adapters.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.domain.Compute.ComputeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeNetworkInterfacesRequest;
import software.amazon.awssdk.services.ec2.model.DescribeNetworkInterfacesResponse;
import software.amazon.awssdk.services.ec2.model.NetworkInterface;
import software.amazon.awssdk.services.ec2.model.NetworkInterfaceAssociation;
import software.amazon.awssdk.services.ec2.model.NetworkInterfacePrivateIpAddress;

/** An ECS task's public addresses, which only EC2 reports: its network interface's. */
class Ec2NetworkInterfacesTest {
    private static final NetworkInterfaceAssociation PUBLIC = NetworkInterfaceAssociation.builder().publicIp("54.20.1.9")
            .publicDnsName("ec2-54-20-1-9.compute-1.amazonaws.com").build();

    @Test
    void eachInterfacesPublicAddressesOnceAndAnUnknownOneLeftOut() {
        FakeEc2 ec2 = new FakeEc2();
        ec2.interfaces = List.of(
                NetworkInterface.builder().networkInterfaceId("eni-1").association(PUBLIC)
                        .privateIpAddresses(NetworkInterfacePrivateIpAddress.builder().privateIpAddress("10.0.1.23")
                                .association(PUBLIC).build()).build(),
                NetworkInterface.builder().networkInterfaceId("eni-2").build());

        Map<String, List<String>> found = new Ec2NetworkInterfaces(ec2).publicAddresses(List.of("eni-1", "eni-2", "eni-3", "eni-1"));

        assertThat(found).containsOnlyKeys("eni-1", "eni-2");
        assertThat(found.get("eni-1")).containsExactly("54.20.1.9", "ec2-54-20-1-9.compute-1.amazonaws.com");
        assertThat(found.get("eni-2")).isEmpty();
        assertThat(ec2.requests).singleElement().satisfies(r -> {
            assertThat(r.networkInterfaceIds()).as("by a filter: an unknown id is no error").isEmpty();
            assertThat(r.filters()).singleElement().satisfies(f -> {
                assertThat(f.name()).isEqualTo("network-interface-id");
                assertThat(f.values()).containsExactly("eni-1", "eni-2", "eni-3");
            });
        });
    }

    @Test
    void aFailureSaysWhatFailedAndWhetherToRetry() {
        FakeEc2 ec2 = new FakeEc2();
        ec2.failure = AwsServiceException.builder().statusCode(400)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("RequestLimitExceeded").errorMessage("slow down").build())
                .build();
        ComputeException e = catchThrowableOfType(ComputeException.class,
                () -> new Ec2NetworkInterfaces(ec2).publicAddresses(List.of("eni-1")));
        assertThat(e).hasMessage("EC2 refused to describe network interfaces eni-1: slow down");
        assertThat(e.retryable()).isTrue();
    }

    private static final class FakeEc2 implements Ec2Client {
        final List<DescribeNetworkInterfacesRequest> requests = new ArrayList<>();
        List<NetworkInterface> interfaces = List.of();
        AwsServiceException failure;

        @Override
        public DescribeNetworkInterfacesResponse describeNetworkInterfaces(DescribeNetworkInterfacesRequest request) {
            requests.add(request);
            if (failure != null) {
                throw failure;
            }
            return DescribeNetworkInterfacesResponse.builder().networkInterfaces(interfaces).build();
        }

        @Override
        public String serviceName() {
            return SERVICE_NAME;
        }

        @Override
        public void close() {}
    }
}
