package io.gamefleet.adapters.ec2;

import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.LaunchTemplate;
import io.gamefleet.domain.LaunchTemplates;
import java.util.Optional;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeLaunchTemplateVersionsRequest;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateIamInstanceProfileSpecification;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateVersion;

/** The launch templates port on EC2's DescribeLaunchTemplateVersions. */
public final class Ec2LaunchTemplates implements LaunchTemplates {
    /** What Auto Scaling launches from when a group names no version. */
    static final String DEFAULT_VERSION = "$Default";
    /** EC2's codes for a template or version that does not exist or is misspelled (InvalidLaunchTemplateId.NotFound, ...). */
    private static final String NOT_FOUND_PREFIX = "InvalidLaunchTemplate";

    private final Ec2Client ec2;

    public Ec2LaunchTemplates(Ec2Client ec2) {
        this.ec2 = ec2;
    }

    @Override
    public Resolved resolve(LaunchTemplate template) {
        LaunchTemplateVersion version;
        try {
            version = ec2.describeLaunchTemplateVersions(request(template)).launchTemplateVersions().stream()
                    .findFirst().orElseThrow(() -> notFound(template));
        } catch (AwsServiceException e) {
            String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
            if (code != null && (code.startsWith(NOT_FOUND_PREFIX) || code.equals("InvalidParameterValue"))) {
                throw notFound(template);
            }
            throw e;
        }
        LaunchTemplateIamInstanceProfileSpecification profile = version.launchTemplateData() == null ? null
                : version.launchTemplateData().iamInstanceProfile();
        Optional<String> named = profile == null ? Optional.empty()
                : Optional.ofNullable(profile.arn() != null ? profile.arn() : profile.name());
        return new Resolved(new LaunchTemplate(version.launchTemplateId(), null, Long.toString(version.versionNumber())),
                named);
    }

    static DescribeLaunchTemplateVersionsRequest request(LaunchTemplate t) {
        return DescribeLaunchTemplateVersionsRequest.builder()
                .launchTemplateId(t.launchTemplateId())
                .launchTemplateName(t.launchTemplateName())
                .versions(t.version() == null ? DEFAULT_VERSION : t.version())
                .build();
    }

    private static GamefleetException notFound(LaunchTemplate t) {
        return GamefleetException.invalidRequest("LaunchTemplate "
                + (t.launchTemplateId() != null ? t.launchTemplateId() : t.launchTemplateName())
                + " version " + (t.version() == null ? DEFAULT_VERSION : t.version())
                + " does not exist in this account and region");
    }
}
