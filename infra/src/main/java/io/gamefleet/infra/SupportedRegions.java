package io.gamefleet.infra;

import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.CfnMapping;
import software.constructs.Construct;

/**
 * Where Gamefleet deploys: the commercial regions that have every service it uses (Lambda on
 * arm64, the API Gateway HTTP and WebSocket APIs, EventBridge Scheduler, Step Functions, DynamoDB,
 * S3), as cfn-lint's region data says (ap-east-2 has no HTTP API yet; GovCloud and China are not
 * tried). SnapStart is on only where Lambda offers it for Java; elsewhere the functions start
 * without it.
 */
final class SupportedRegions {
    static final List<String> ALL = List.of(
            "us-east-1", "us-east-2", "us-west-1", "us-west-2", "ca-central-1", "ca-west-1", "sa-east-1",
            "mx-central-1", "eu-west-1", "eu-west-2", "eu-west-3", "eu-central-1", "eu-central-2", "eu-north-1",
            "eu-south-1", "eu-south-2", "il-central-1", "me-south-1", "me-central-1", "af-south-1", "ap-south-1",
            "ap-south-2", "ap-northeast-1", "ap-northeast-2", "ap-northeast-3", "ap-southeast-1", "ap-southeast-2",
            "ap-southeast-3", "ap-southeast-4", "ap-southeast-5", "ap-southeast-7", "ap-east-1");

    /** Where Lambda has no SnapStart for Java (as of the CDK and cfn-lint versions in use). */
    static final Set<String> WITHOUT_SNAPSTART = Set.of("me-central-1", "ap-south-2", "ap-southeast-4",
            "ap-southeast-5", "ap-southeast-6", "ap-southeast-7", "ap-east-2", "ca-west-1", "eu-central-2",
            "eu-south-2", "il-central-1", "mx-central-1");

    private SupportedRegions() {}

    /**
     * SnapStart's ApplyOn per supported region: PublishedVersions where Lambda has it, None where it
     * has not. The stack is region-agnostic, so the template picks when CloudFormation knows its
     * region; in a region not listed the lookup fails, and with it the deployment, at once.
     */
    static CfnMapping snapStartByRegion(Construct scope) {
        Map<String, Map<String, Object>> byRegion = new TreeMap<>();
        for (String region : ALL) {
            byRegion.put(region, Map.of("ApplyOn", WITHOUT_SNAPSTART.contains(region) ? "None" : "PublishedVersions"));
        }
        return CfnMapping.Builder.create(scope, "SnapStartByRegion").mapping(byRegion).build();
    }
}
