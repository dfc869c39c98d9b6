package io.gamefleet.agent;

import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.imds.Ec2MetadataClient;

/** The instance metadata items the agent reads (IMDSv2, through the SDK's own client). */
interface InstanceMetadata {
    String SPOT_INSTANCE_ACTION = "/latest/meta-data/spot/instance-action";
    String REBALANCE = "/latest/meta-data/events/recommendations/rebalance";
    String SCHEDULED_EVENTS = "/latest/meta-data/events/maintenance/scheduled";
    String INSTANCE_ID = "/latest/meta-data/instance-id";
    String PUBLIC_IPV4 = "/latest/meta-data/public-ipv4";
    String LOCAL_IPV4 = "/latest/meta-data/local-ipv4";

    /** The item, or empty when the metadata has none (404); throws when the metadata cannot be read. */
    Optional<String> get(String path);

    /** Ec2MetadataClient: it takes the session token (PUT /latest/api/token) and renews it itself. */
    static InstanceMetadata of(Ec2MetadataClient client) {
        return path -> {
            try {
                return Optional.of(client.get(path).asString());
            } catch (SdkClientException e) {
                // The client's message for a status it does not retry: "... returned Http code 404".
                if (e.getMessage() != null && e.getMessage().endsWith("Http code 404")) {
                    return Optional.empty();
                }
                throw e;
            }
        };
    }
}
