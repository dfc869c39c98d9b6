package io.gamefleet.agent;

import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.imds.Ec2MetadataClient;
import software.amazon.awssdk.imds.Ec2MetadataClientException;

/** The instance metadata items the agent reads (IMDSv2, through the SDK's own client). */
interface InstanceMetadata {
    String SPOT_INSTANCE_ACTION = "/latest/meta-data/spot/instance-action";
    String REBALANCE = "/latest/meta-data/events/recommendations/rebalance";
    String SCHEDULED_EVENTS = "/latest/meta-data/events/maintenance/scheduled";
    /** Auto Scaling's word on the instance: {@code InService}, or {@code Terminated} once it is to be terminated (a scale-in). */
    String TARGET_LIFECYCLE_STATE = "/latest/meta-data/autoscaling/target-lifecycle-state";
    String INSTANCE_ID = "/latest/meta-data/instance-id";
    String PUBLIC_IPV4 = "/latest/meta-data/public-ipv4";
    String LOCAL_IPV4 = "/latest/meta-data/local-ipv4";

    /** The item, or empty when the metadata has none (404); throws when the metadata cannot be read. */
    Optional<String> get(String path);

    /**
     * Ec2MetadataClient takes the session token (PUT /latest/api/token) and takes a new one when the
     * token's TTL has run out by its own clock; but a 401 (the token refused earlier: the metadata
     * service restarted, a clock that jumped) is an error to it, and it would go on sending the token
     * it cached. So a 401 closes the client, and a new one (a new token) reads the item again.
     */
    static InstanceMetadata of(Supplier<Ec2MetadataClient> clients) {
        return new InstanceMetadata() {
            private Ec2MetadataClient client = clients.get();

            @Override
            public synchronized Optional<String> get(String path) {
                try {
                    return read(path);
                } catch (Ec2MetadataClientException e) {
                    if (e.statusCode() != 401) {
                        throw e;
                    }
                    client.close();
                    client = clients.get();
                    return read(path);
                }
            }

            private Optional<String> read(String path) {
                try {
                    return Optional.of(client.get(path).asString());
                } catch (Ec2MetadataClientException e) {
                    if (e.statusCode() == 404) {
                        return Optional.empty();
                    }
                    throw e;
                }
            }
        };
    }
}
