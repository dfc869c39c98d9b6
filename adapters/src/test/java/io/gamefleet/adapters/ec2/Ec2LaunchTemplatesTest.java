package io.gamefleet.adapters.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.LaunchTemplate;
import io.gamefleet.domain.LaunchTemplates.Resolved;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeLaunchTemplateVersionsRequest;
import software.amazon.awssdk.services.ec2.model.DescribeLaunchTemplateVersionsResponse;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateIamInstanceProfileSpecification;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateVersion;
import software.amazon.awssdk.services.ec2.model.ResponseLaunchTemplateData;

class Ec2LaunchTemplatesTest {

    @Test
    void theDefaultVersionIsAskedForWhenNoneIsGivenAndTheAnswerIsPinnedToIdAndNumber() {
        FakeEc2 ec2 = new FakeEc2(version(LaunchTemplateIamInstanceProfileSpecification.builder()
                .arn("arn:aws:iam::123456789012:instance-profile/Administrator").name("ignored").build()));

        Resolved resolved = new Ec2LaunchTemplates(ec2).resolve(new LaunchTemplate(null, "arena-lt", null));

        assertThat(ec2.requests).containsExactly(DescribeLaunchTemplateVersionsRequest.builder()
                .launchTemplateName("arena-lt").versions("$Default").build());
        assertThat(resolved.pinned()).isEqualTo(new LaunchTemplate("lt-0abc", null, "4"));
        assertThat(resolved.instanceProfile()).contains("arn:aws:iam::123456789012:instance-profile/Administrator");
    }

    @Test
    void aProfileGivenByNameIsReportedByNameAndNoneAsNone() {
        Ec2LaunchTemplates byName = new Ec2LaunchTemplates(new FakeEc2(version(
                LaunchTemplateIamInstanceProfileSpecification.builder().name("GameServers").build())));
        assertThat(byName.resolve(new LaunchTemplate("lt-0abc", null, "$Latest")).instanceProfile()).contains("GameServers");

        Ec2LaunchTemplates none = new Ec2LaunchTemplates(new FakeEc2(version(null)));
        assertThat(none.resolve(new LaunchTemplate("lt-0abc", null, "4")).instanceProfile()).isEqualTo(Optional.empty());
    }

    @Test
    void aMissingTemplateOrVersionIsAnInvalidRequest() {
        for (String code : List.of("InvalidLaunchTemplateName.NotFoundException", "InvalidLaunchTemplateId.VersionNotFound",
                "InvalidLaunchTemplateId.Malformed")) {
            FakeEc2 ec2 = new FakeEc2(null);
            ec2.failure = AwsServiceException.builder().statusCode(400)
                    .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage("no").build()).build();
            assertThatThrownBy(() -> new Ec2LaunchTemplates(ec2).resolve(new LaunchTemplate(null, "gone", "3")))
                    .isInstanceOf(GamefleetException.class)
                    .hasMessage("LaunchTemplate gone version 3 does not exist in this account and region");
        }
        assertThatThrownBy(() -> new Ec2LaunchTemplates(new FakeEc2(null)).resolve(new LaunchTemplate(null, "gone", null)))
                .isInstanceOf(GamefleetException.class).hasMessageContaining("does not exist");
    }

    @Test
    void otherFailuresAreNotTheCallersFault() {
        FakeEc2 ec2 = new FakeEc2(null);
        ec2.failure = AwsServiceException.builder().statusCode(503)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("Unavailable").build()).build();
        assertThatThrownBy(() -> new Ec2LaunchTemplates(ec2).resolve(new LaunchTemplate(null, "lt", null)))
                .isSameAs(ec2.failure);
    }

    private static LaunchTemplateVersion version(LaunchTemplateIamInstanceProfileSpecification profile) {
        return LaunchTemplateVersion.builder().launchTemplateId("lt-0abc").launchTemplateName("arena-lt").versionNumber(4L)
                .launchTemplateData(ResponseLaunchTemplateData.builder().iamInstanceProfile(profile).build()).build();
    }

    /** Answers with the version given (none when null), or throws {@link #failure}. */
    private static final class FakeEc2 implements Ec2Client {
        final List<DescribeLaunchTemplateVersionsRequest> requests = new ArrayList<>();
        final LaunchTemplateVersion version;
        AwsServiceException failure;

        FakeEc2(LaunchTemplateVersion version) {
            this.version = version;
        }

        @Override
        public DescribeLaunchTemplateVersionsResponse describeLaunchTemplateVersions(DescribeLaunchTemplateVersionsRequest r) {
            requests.add(r);
            if (failure != null) {
                throw failure;
            }
            return DescribeLaunchTemplateVersionsResponse.builder()
                    .launchTemplateVersions(version == null ? List.of() : List.of(version)).build();
        }

        @Override
        public String serviceName() {
            return SERVICE_NAME;
        }

        @Override
        public void close() {}
    }
}
