package io.gamefleet.adapters.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.adapters.ec2.Ec2Instances;
import io.gamefleet.catalog.Catalog;
import io.gamefleet.domain.AutoScalingPolicy;
import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.Compute.ComputeException;
import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.Compute.ScalingGroupState;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.LaunchTemplate;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.autoscaling.AutoScalingClient;
import software.amazon.awssdk.services.autoscaling.model.AlreadyExistsException;
import software.amazon.awssdk.services.autoscaling.model.AutoScalingGroup;
import software.amazon.awssdk.services.autoscaling.model.AutoScalingRequest;
import software.amazon.awssdk.services.autoscaling.model.CreateAutoScalingGroupRequest;
import software.amazon.awssdk.services.autoscaling.model.CreateAutoScalingGroupResponse;
import software.amazon.awssdk.services.autoscaling.model.DeleteAutoScalingGroupRequest;
import software.amazon.awssdk.services.autoscaling.model.DeleteAutoScalingGroupResponse;
import software.amazon.awssdk.services.autoscaling.model.DescribeAutoScalingGroupsRequest;
import software.amazon.awssdk.services.autoscaling.model.DescribeAutoScalingGroupsResponse;
import software.amazon.awssdk.services.autoscaling.model.Instance;
import software.amazon.awssdk.services.autoscaling.model.InstancesDistribution;
import software.amazon.awssdk.services.autoscaling.model.LaunchTemplateOverrides;
import software.amazon.awssdk.services.autoscaling.model.LifecycleState;
import software.amazon.awssdk.services.autoscaling.model.MixedInstancesPolicy;
import software.amazon.awssdk.services.autoscaling.model.PutScalingPolicyRequest;
import software.amazon.awssdk.services.autoscaling.model.PutScalingPolicyResponse;
import software.amazon.awssdk.services.autoscaling.model.ResourceInUseException;
import software.amazon.awssdk.services.autoscaling.model.ScalingActivityInProgressException;
import software.amazon.awssdk.services.autoscaling.model.SetDesiredCapacityRequest;
import software.amazon.awssdk.services.autoscaling.model.SetDesiredCapacityResponse;
import software.amazon.awssdk.services.autoscaling.model.SetInstanceProtectionRequest;
import software.amazon.awssdk.services.autoscaling.model.SetInstanceProtectionResponse;
import software.amazon.awssdk.services.autoscaling.model.TerminateInstanceInAutoScalingGroupRequest;
import software.amazon.awssdk.services.autoscaling.model.TerminateInstanceInAutoScalingGroupResponse;
import software.amazon.awssdk.services.autoscaling.model.TagDescription;
import software.amazon.awssdk.services.autoscaling.model.UpdateAutoScalingGroupRequest;
import software.amazon.awssdk.services.autoscaling.model.UpdateAutoScalingGroupResponse;

class AwsAutoScalingComputeTest {
    /** The stage's maximum instance lifetime, which the groups it creates get as MaxInstanceLifetime. */
    private static final java.time.Duration LIFETIME = java.time.Duration.ofHours(240);
    static final String ASG = "gamefleet-arena";
    static final String STAGE = "prod";
    private static final String ASG_ARN =
            "arn:aws:autoscaling:us-east-1:123456789012:autoScalingGroup:uuid:autoScalingGroupName/gamefleet-arena";

    /** A game server group "arena" of two instance definitions, for the Auto Scaling group {@value #ASG}. */
    static GameServerGroup.Builder group() {
        return GameServerGroup.builder()
                .name("arena")
                .instanceDefinitions(List.of(new InstanceDefinition("c5.large", null),
                        new InstanceDefinition("c5.xlarge", "2")))
                .balancingStrategy(BalancingStrategy.SPOT_PREFERRED)
                .minSize(0)
                .maxSize(10)
                .launchTemplate(new LaunchTemplate("lt-0123", null, null));
    }

    // --- Behaviour against a scripted client ------------------------------------------------

    @Test
    void createPutsThePolicyAndReturnsTheArn() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.describes.add(List.of(asg(0, 10, 1, List.of(), "arena")));

        String arn = compute(fake)
                .createScalingGroup(group().autoScalingPolicy(new AutoScalingPolicy(null, 70)).build());

        assertThat(arn).isEqualTo(ASG_ARN);
        assertThat(fake.calls).extracting(Object::getClass).containsExactly(CreateAutoScalingGroupRequest.class,
                DescribeAutoScalingGroupsRequest.class, PutScalingPolicyRequest.class);
        assertThat(((CreateAutoScalingGroupRequest) fake.calls.get(0)).maxInstanceLifetime()).as("the stage's lifetime")
                .isEqualTo(864_000);
    }

    @Test
    void createWithoutPolicyPutsNone() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.describes.add(List.of(asg(0, 10, 1, List.of(), "arena")));

        compute(fake).createScalingGroup(group().build());

        assertThat(fake.calls).noneMatch(PutScalingPolicyRequest.class::isInstance);
    }

    @Test
    void createCarriesOnWhenItsGroupAlreadyExists() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.createFailure = AlreadyExistsException.builder()
                .awsErrorDetails(error("AlreadyExists", "AutoScalingGroup by this name already exists")).build();
        fake.describes.add(List.of(asg(0, 10, 1, List.of(), "arena")));

        assertThat(compute(fake).createScalingGroup(group().build())).isEqualTo(ASG_ARN);
    }

    @Test
    void createRefusesToAdoptAGroupGamefleetDidNotCreate() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.createFailure = AlreadyExistsException.builder()
                .awsErrorDetails(error("AlreadyExists", "AutoScalingGroup by this name already exists")).build();
        fake.describes.add(List.of(asg(0, 10, 1, List.of(), null)));

        ComputeException e = catchThrowableOfType(ComputeException.class,
                () -> compute(fake).createScalingGroup(group().build()));

        assertThat(e).hasMessageContaining(ASG);
        assertThat(e.retryable()).isFalse();
    }

    @Test
    void createFailuresSayWhatFailedAndWhetherToRetry() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.createFailure = AwsServiceException.builder()
                .awsErrorDetails(error("ValidationError", "Max bound, 0, must be greater than or equal to min bound, 1"))
                .statusCode(400).build();
        ComputeException refused = catchThrowableOfType(ComputeException.class,
                () -> compute(fake).createScalingGroup(group().build()));
        assertThat(refused).hasMessage("Auto Scaling refused to create gamefleet-arena: "
                + "Max bound, 0, must be greater than or equal to min bound, 1");
        assertThat(refused.retryable()).isFalse();
        assertThat(refused).hasCauseReference(fake.createFailure);

        fake.createFailure = AwsServiceException.builder()
                .awsErrorDetails(error("ResourceContention", "busy")).statusCode(500).build();
        assertThat(catchThrowableOfType(ComputeException.class,
                () -> compute(fake).createScalingGroup(group().build())).retryable()).isTrue();
    }

    @Test
    void retryableCodesAreRetryableEvenWhenTheSdkDoesNotSaySo() {
        for (String code : List.of("Throttling", "RequestLimitExceeded", "ServiceUnavailable", "InternalFailure",
                "ResourceContention", "ScalingActivityInProgress")) {
            AwsServiceException e = AwsServiceException.builder().awsErrorDetails(error(code, "x")).statusCode(400).build();
            assertThat(AwsAutoScalingCompute.failure("create", ASG, e).retryable()).as(code).isTrue();
        }
        AwsServiceException denied = AwsServiceException.builder()
                .awsErrorDetails(error("AccessDenied", "no")).statusCode(403).build();
        assertThat(AwsAutoScalingCompute.failure("create", ASG, denied).retryable()).isFalse();
    }

    @Test
    void describeMapsTheInstancesAndIsEmptyWithoutAGroup() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.describes.add(List.of(asg(1, 10, 2, List.of(
                Instance.builder().instanceId("i-1").instanceType("c5.large").availabilityZone("us-east-1a")
                        .lifecycleState(LifecycleState.IN_SERVICE).protectedFromScaleIn(true).build(),
                Instance.builder().instanceId("i-2").instanceType("c5.xlarge").availabilityZone("us-east-1b")
                        .lifecycleState(LifecycleState.PENDING).protectedFromScaleIn(false).build()), "arena")));
        fake.describes.add(List.of());
        AwsAutoScalingCompute compute = compute(fake);

        assertThat(compute.describeInstances(ASG)).containsExactly(
                new ComputeInstance("i-1", "c5.large", "us-east-1a", true, true),
                new ComputeInstance("i-2", "c5.xlarge", "us-east-1b", false, false));
        assertThat(compute.describeInstances(ASG)).isEmpty();
        assertThat(fake.calls).allSatisfy(r -> assertThat(((DescribeAutoScalingGroupsRequest) r).autoScalingGroupNames())
                .containsExactly(ASG));
    }

    @Test
    void describeScalingGroupReadsTheOverridesWithTheirWeightsAndThePurchaseOption() {
        FakeAutoScaling fake = new FakeAutoScaling();
        MixedInstancesPolicy policy = MixedInstancesPolicy.builder()
                .launchTemplate(software.amazon.awssdk.services.autoscaling.model.LaunchTemplate.builder().overrides(
                        LaunchTemplateOverrides.builder().instanceType("c5.large").weightedCapacity("2").build(),
                        LaunchTemplateOverrides.builder().instanceType("m5.large").build()).build())
                .instancesDistribution(InstancesDistribution.builder().onDemandPercentageAboveBaseCapacity(100).build())
                .build();
        fake.describes.add(List.of(asg(1, 10, 3, List.of(), "arena").toBuilder().mixedInstancesPolicy(policy).build()));

        ScalingGroupState state = compute(fake).describeScalingGroup(ASG).orElseThrow();

        assertThat(state.instanceTypes()).containsExactly(new InstanceDefinition("c5.large", "2"),
                new InstanceDefinition("m5.large", null));
        assertThat(state.onDemandOnly()).isTrue();
        assertThat(state.desiredCapacity()).isEqualTo(3);
    }

    @Test
    void deletingAMissingGroupIsDone() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.describes.add(List.of());

        assertThat(compute(fake).deleteScalingGroup(ASG, false)).isTrue();
        assertThat(fake.calls).singleElement().isInstanceOf(DescribeAutoScalingGroupsRequest.class);
    }

    @Test
    void forceDeleteDeletesAtOnceAndReportsWhetherItIsGone() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.describes.add(List.of(asg(1, 10, 2, List.of(inService("i-1")), "arena")));
        fake.describes.add(List.of());

        assertThat(compute(fake).deleteScalingGroup(ASG, true)).isTrue();
        assertThat(fake.calls).filteredOn(DeleteAutoScalingGroupRequest.class::isInstance).singleElement()
                .isEqualTo(ScalingGroupRequests.deleteRequest(ASG));
    }

    @Test
    void forceDeleteIsNotDoneWhileTheGroupIsStillListed() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.describes.add(List.of(asg(1, 10, 2, List.of(inService("i-1")), "arena")));
        fake.describes.add(List.of(asg(1, 10, 2, List.of(inService("i-1")), "arena").toBuilder()
                .status("Delete in progress").build()));

        assertThat(compute(fake).deleteScalingGroup(ASG, true)).isFalse();
    }

    @Test
    void aDeletionInProgressIsNotRequestedAgain() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.describes.add(List.of(asg(0, 0, 0, List.of(inService("i-1")), "arena").toBuilder()
                .status("Delete in progress").build()));

        assertThat(compute(fake).deleteScalingGroup(ASG, true)).isFalse();
        assertThat(fake.calls).singleElement().isInstanceOf(DescribeAutoScalingGroupsRequest.class);
    }

    @Test
    void safeDeleteDrainsFirstAndKeepsTheGroupWhileInstancesRemain() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.describes.add(List.of(asg(1, 10, 3, List.of(inService("i-1")), "arena")));
        fake.describes.add(List.of(asg(0, 0, 0, List.of(inService("i-1")), "arena")));
        AwsAutoScalingCompute compute = compute(fake);

        assertThat(compute.deleteScalingGroup(ASG, false)).isFalse();
        assertThat(compute.deleteScalingGroup(ASG, false)).isFalse();

        assertThat(fake.calls).filteredOn(UpdateAutoScalingGroupRequest.class::isInstance).singleElement()
                .isEqualTo(ScalingGroupRequests.drainRequest(ASG));
        assertThat(fake.calls).noneMatch(DeleteAutoScalingGroupRequest.class::isInstance);
    }

    @Test
    void safeDeleteSendsTheDrainOnlyToAGroupNotDrainedYet() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.describes.add(List.of(asg(0, 0, 1, List.of(inService("i-1")), "arena")));
        assertThat(compute(fake).deleteScalingGroup(ASG, false)).isFalse();
        assertThat(fake.calls).filteredOn(UpdateAutoScalingGroupRequest.class::isInstance).singleElement()
                .isEqualTo(ScalingGroupRequests.drainRequest(ASG));

        FakeAutoScaling drained = new FakeAutoScaling();
        drained.describes.add(List.of(asg(0, 0, 0, List.of(inService("i-1")), "arena")));
        assertThat(compute(drained).deleteScalingGroup(ASG, false)).isFalse();
        assertThat(drained.calls).singleElement().isInstanceOf(DescribeAutoScalingGroupsRequest.class);
    }

    @Test
    void aGroupOfAnotherNameInTheAnswerIsNotTheGroup() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.describes.add(List.of(asg(0, 10, 1, List.of(), "arena").toBuilder().autoScalingGroupName("gamefleet-arena2")
                .build()));
        assertThat(compute(fake).describeScalingGroup(ASG)).isEmpty();
    }

    @Test
    void onlyTheManagedTagOfThisGroupMakesAnExistingGroupGamefleets() {
        for (List<TagDescription> tags : List.of(
                List.of(TagDescription.builder().key("team").value("arena").build()),
                List.of(TagDescription.builder().key(Catalog.MANAGED_TAG_KEY).value("other").build()),
                List.of(TagDescription.builder().key(Catalog.MANAGED_TAG_KEY).value("arena").build()),
                List.of(TagDescription.builder().key(Catalog.MANAGED_TAG_KEY).value("arena").build(),
                        TagDescription.builder().key(Catalog.STAGE_TAG_KEY).value("prod-eu").build()))) {
            FakeAutoScaling fake = new FakeAutoScaling();
            fake.createFailure = AlreadyExistsException.builder()
                    .awsErrorDetails(error("AlreadyExists", "AutoScalingGroup by this name already exists")).build();
            fake.describes.add(List.of(asg(0, 10, 1, List.of(), null).toBuilder().tags(tags).build()));
            assertThat(catchThrowableOfType(ComputeException.class,
                    () -> compute(fake).createScalingGroup(group().build())))
                    .as("%s", tags).hasMessageContaining("was not created by Gamefleet");
        }
    }

    @Test
    void safeDeleteDeletesOnceNoInstanceIsLeft() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.describes.add(List.of(asg(0, 0, 0, List.of(), "arena")));
        fake.describes.add(List.of());

        assertThat(compute(fake).deleteScalingGroup(ASG, false)).isTrue();
        assertThat(fake.calls).filteredOn(DeleteAutoScalingGroupRequest.class::isInstance).singleElement()
                .isEqualTo(ScalingGroupRequests.deleteRequest(ASG));
    }

    @Test
    void busyGroupsAreNotGoneYet() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.deleteFailure = ScalingActivityInProgressException.builder()
                .awsErrorDetails(error("ScalingActivityInProgress", "activity in progress")).statusCode(400).build();
        fake.describes.add(List.of(asg(0, 0, 0, List.of(), "arena")));
        assertThat(compute(fake).deleteScalingGroup(ASG, false)).isFalse();

        fake.deleteFailure = ResourceInUseException.builder()
                .awsErrorDetails(error("ResourceInUse", "in use")).statusCode(400).build();
        fake.describes.add(List.of(asg(0, 0, 0, List.of(), "arena")));
        assertThat(compute(fake).deleteScalingGroup(ASG, true)).isFalse();
    }

    @Test
    void otherDeleteFailuresAreErrors() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.deleteFailure = AwsServiceException.builder()
                .awsErrorDetails(error("AccessDenied", "not allowed")).statusCode(403).build();
        fake.describes.add(List.of(asg(0, 0, 0, List.of(), "arena")));

        assertThatThrownBy(() -> compute(fake).deleteScalingGroup(ASG, true))
                .isInstanceOf(ComputeException.class)
                .hasMessage("Auto Scaling refused to delete gamefleet-arena: not allowed");
    }

    @Test
    void setDesiredCapacitySendsTheBuiltRequest() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.describes.add(List.of(asg(0, 10, 1, List.of(), "arena")));
        compute(fake).setDesiredCapacity(ASG, 7);
        assertThat(fake.calls).containsExactly(ScalingGroupRequests.describeRequest(ASG),
                ScalingGroupRequests.desiredCapacityRequest(ASG, 7));
    }

    // --- Ownership: only this stage's scaling group of this game server group is changed --------

    /** Same name, other owner: another stage's (prod-eu's arena is gamefleet-prod-eu-arena too), another group's, or nobody's. */
    private static List<AutoScalingGroup> foreignGroups() {
        AutoScalingGroup ours = asg(1, 10, 2, List.of(inService("i-1")), "arena");
        return List.of(
                ours.toBuilder().tags(TagDescription.builder().key(Catalog.MANAGED_TAG_KEY).value("arena").build(),
                        TagDescription.builder().key(Catalog.STAGE_TAG_KEY).value("prod-eu").build()).build(),
                ours.toBuilder().tags(TagDescription.builder().key(Catalog.MANAGED_TAG_KEY).value("other").build(),
                        TagDescription.builder().key(Catalog.STAGE_TAG_KEY).value(STAGE).build()).build(),
                ours.toBuilder().tags(TagDescription.builder().key(Catalog.MANAGED_TAG_KEY).value("arena").build()).build(),
                ours.toBuilder().tags(List.of()).build());
    }

    @Test
    void everyChangeRefusesAScalingGroupOfAnotherStageOrGroupAndSendsNothing() {
        List<java.util.function.Consumer<AwsAutoScalingCompute>> changes = List.of(
                c -> c.setDesiredCapacity(ASG, 3),
                c -> c.setInstanceProtection(ASG, "i-1", false),
                c -> c.terminateInstance(ASG, "i-1", true),
                c -> c.setInstanceTypes(ASG, List.of(new InstanceDefinition("c5.large", "1"),
                        new InstanceDefinition("m5.large", "1")), BalancingStrategy.SPOT_ONLY));
        for (AutoScalingGroup foreign : foreignGroups()) {
            for (var change : changes) {
                FakeAutoScaling fake = new FakeAutoScaling();
                fake.describes.add(List.of(foreign));
                assertThatThrownBy(() -> change.accept(compute(fake))).as("%s", foreign.tags())
                        .isInstanceOf(ComputeException.class).hasMessageContaining("it was not changed")
                        .satisfies(e -> assertThat(((ComputeException) e).retryable()).isFalse());
                assertThat(fake.calls).singleElement().isInstanceOf(DescribeAutoScalingGroupsRequest.class);
            }
        }
    }

    @Test
    void deletionLeavesAScalingGroupOfAnotherStageOrGroupAloneAndIsDone() {
        for (AutoScalingGroup foreign : foreignGroups()) {
            for (boolean force : List.of(true, false)) {
                FakeAutoScaling fake = new FakeAutoScaling();
                fake.describes.add(List.of(foreign));
                assertThat(compute(fake).deleteScalingGroup(ASG, force)).as("%s", foreign.tags()).isTrue();
                assertThat(fake.calls).singleElement().isInstanceOf(DescribeAutoScalingGroupsRequest.class);
            }
            FakeAutoScaling fake = new FakeAutoScaling();
            fake.describes.add(List.of(foreign));
            assertThat(compute(fake).describeScalingGroup(ASG)).as("%s", foreign.tags()).isEmpty();
        }
    }

    /**
     * Under the former prefix, stage prod's group eu-arena and stage prod-eu's arena shared the name
     * gamefleet-prod-eu-arena: a prod group stored with that name finds prod-eu's, its creation is refused
     * (the group goes to ERROR), and its FORCE_DELETE then deletes nothing.
     */
    @Test
    void forceDeleteAfterARefusedCreationLeavesTheOtherStagesGroupAlone() {
        String shared = "gamefleet-prod-eu-arena";
        AutoScalingGroup prodEuArena = asg(1, 10, 2, List.of(inService("i-1")), null).toBuilder()
                .autoScalingGroupName(shared).tags(TagDescription.builder().key(Catalog.MANAGED_TAG_KEY).value("arena").build(),
                        TagDescription.builder().key(Catalog.STAGE_TAG_KEY).value("prod-eu").build()).build();
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.createFailure = AlreadyExistsException.builder()
                .awsErrorDetails(error("AlreadyExists", "AutoScalingGroup by this name already exists")).build();
        fake.describes.add(List.of(prodEuArena));
        fake.describes.add(List.of(prodEuArena));
        AwsAutoScalingCompute prod = new AwsAutoScalingCompute(fake, NO_EC2, "prod", Catalog.scalingGroupPrefix("prod"), LIFETIME);
        GameServerGroup euArena = group().name("eu-arena").autoScalingGroupName(shared).build();

        assertThatThrownBy(() -> prod.createScalingGroup(euArena)).isInstanceOf(ComputeException.class)
                .hasMessageContaining("was not created by Gamefleet for game server group eu-arena of stage prod");
        assertThat(prod.deleteScalingGroup(shared, true)).isTrue();

        assertThat(fake.calls).noneMatch(DeleteAutoScalingGroupRequest.class::isInstance)
                .noneMatch(UpdateAutoScalingGroupRequest.class::isInstance);
    }

    /** A group the stage created under its former prefix is still its own: changed, and deleted. */
    @Test
    void aGroupOfTheStagesFormerPrefixIsStillItsOwn() {
        String former = Catalog.formerScalingGroupPrefix("prod") + "arena";
        AutoScalingGroup old = asg(1, 10, 2, List.of(inService("i-1")), "arena").toBuilder().autoScalingGroupName(former)
                .tags(TagDescription.builder().key(Catalog.MANAGED_TAG_KEY).value("arena").build(),
                        TagDescription.builder().key(Catalog.STAGE_TAG_KEY).value("prod").build()).build();
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.describes.add(List.of(old));
        new AwsAutoScalingCompute(fake, NO_EC2, "prod", Catalog.scalingGroupPrefix("prod"), LIFETIME).setDesiredCapacity(former, 3);
        assertThat(fake.calls).containsExactly(ScalingGroupRequests.describeRequest(former),
                ScalingGroupRequests.desiredCapacityRequest(former, 3));
    }

    @Test
    void terminationRefusesAnInstanceOutsideTheGroup() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.describes.add(List.of(asg(1, 10, 2, List.of(inService("i-1")), "arena")));
        assertThatThrownBy(() -> compute(fake).terminateInstance(ASG, "i-9", true))
                .isInstanceOf(ComputeException.class).hasMessageContaining("i-9 is not in Auto Scaling group");
        assertThat(fake.calls).singleElement().isInstanceOf(DescribeAutoScalingGroupsRequest.class);
    }

    @Test
    void aChangeToOwnGroupIsSent() {
        FakeAutoScaling fake = new FakeAutoScaling();
        fake.describes.add(List.of(asg(1, 10, 2, List.of(inService("i-1")), "arena")));
        fake.describes.add(List.of(asg(1, 10, 2, List.of(inService("i-1")), "arena")));
        AwsAutoScalingCompute compute = compute(fake);
        compute.setInstanceProtection(ASG, "i-1", false);
        compute.terminateInstance(ASG, "i-1", true);
        assertThat(fake.calls).containsExactly(ScalingGroupRequests.describeRequest(ASG),
                ScalingGroupRequests.protectionRequest(ASG, "i-1", false), ScalingGroupRequests.describeRequest(ASG),
                ScalingGroupRequests.terminateRequest("i-1", true));
    }

    // --- Through the real SDK, stopped before the network -----------------------------------

    @Test
    void createSendsACreateAutoScalingGroupQueryAndSurfacesTheFailure() {
        // What the SDK itself throws when it cannot reach the endpoint.
        SdkClientException notSent = SdkClientException.create("stopped before sending");
        AtomicReference<SdkHttpRequest> sent = new AtomicReference<>();
        AtomicReference<String> body = new AtomicReference<>();
        ExecutionInterceptor stopBeforeSending = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                sent.set(context.httpRequest());
                // By now the signed request carries the form body itself; requestBody() is empty.
                body.set(((SdkHttpFullRequest) context.httpRequest()).contentStreamProvider()
                        .map(p -> read(p.newStream())).orElse(""));
                throw notSent;
            }
        };
        try (AutoScalingClient client = AutoScalingClient.builder()
                .endpointOverride(URI.create("http://127.0.0.1:1"))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret")))
                .overrideConfiguration(c -> c.addExecutionInterceptor(stopBeforeSending)
                        .retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build()) {

            ComputeException e = catchThrowableOfType(ComputeException.class,
                    () -> compute(client).createScalingGroup(group().vpcSubnets(List.of("subnet-a")).build()));

            assertThat(e).hasMessageStartingWith("Could not reach Auto Scaling to create gamefleet-arena");
            // The SDK rebuilds the exception to add its attempt count, so match by message.
            assertThat(e.getCause()).isInstanceOf(SdkClientException.class)
                    .hasMessageStartingWith(notSent.getMessage());
        }

        assertThat(sent.get().method().name()).isEqualTo("POST");
        assertThat(sent.get().getUri().getHost()).isEqualTo("127.0.0.1");
        assertThat(sent.get().firstMatchingHeader("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/x-www-form-urlencoded"));
        Map<String, String> form = form(body.get());
        assertThat(form).containsEntry("Action", "CreateAutoScalingGroup")
                .containsEntry("AutoScalingGroupName", ASG)
                .containsEntry("VPCZoneIdentifier", "subnet-a")
                .containsEntry("MixedInstancesPolicy.LaunchTemplate.LaunchTemplateSpecification.LaunchTemplateId", "lt-0123")
                .containsEntry("MixedInstancesPolicy.LaunchTemplate.Overrides.member.2.InstanceType", "c5.xlarge")
                .containsEntry("MixedInstancesPolicy.LaunchTemplate.Overrides.member.2.WeightedCapacity", "2");
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, String> form(String body) {
        return Arrays.stream(body.split("&")).map(p -> p.split("=", 2))
                .collect(Collectors.toMap(p -> URLDecoder.decode(p[0], StandardCharsets.UTF_8),
                        p -> p.length > 1 ? URLDecoder.decode(p[1], StandardCharsets.UTF_8) : "",
                        (a, b) -> b, LinkedHashMap::new));
    }

    // --- Fixtures ---------------------------------------------------------------------------

    private static AwsErrorDetails error(String code, String message) {
        return AwsErrorDetails.builder().errorCode(code).errorMessage(message).build();
    }

    private static Instance inService(String id) {
        return Instance.builder().instanceId(id).instanceType("c5.large").availabilityZone("us-east-1a")
                .lifecycleState(LifecycleState.IN_SERVICE).protectedFromScaleIn(true).build();
    }

    private static AwsAutoScalingCompute compute(AutoScalingClient client) {
        return new AwsAutoScalingCompute(client, NO_EC2, STAGE, "gamefleet-", LIFETIME);
    }

    /** EC2, which these tests never ask (Ec2InstancesTest does). */
    private static final Ec2Instances NO_EC2 = new Ec2Instances(new software.amazon.awssdk.services.ec2.Ec2Client() {
        @Override
        public String serviceName() {
            return SERVICE_NAME;
        }

        @Override
        public void close() {}
    });

    /** {@code managedFor}: the game server group its tags name, with this stage; null: no tags. */
    private static AutoScalingGroup asg(int min, int max, int desired, List<Instance> instances, String managedFor) {
        List<TagDescription> tags = managedFor == null ? List.of()
                : List.of(TagDescription.builder().key(Catalog.MANAGED_TAG_KEY).value(managedFor).build(),
                        TagDescription.builder().key(Catalog.STAGE_TAG_KEY).value(STAGE).build());
        return AutoScalingGroup.builder().autoScalingGroupName(ASG).autoScalingGroupARN(ASG_ARN)
                .minSize(min).maxSize(max).desiredCapacity(desired).instances(instances).tags(tags).build();
    }

    /**
     * Records every request; DescribeAutoScalingGroups answers from a script, one answer per
     * call, so a test fails if the adapter describes more often than the test expects.
     */
    private static final class FakeAutoScaling implements AutoScalingClient {
        final List<AutoScalingRequest> calls = new ArrayList<>();
        final Deque<List<AutoScalingGroup>> describes = new ArrayDeque<>();
        AwsServiceException createFailure;
        AwsServiceException deleteFailure;

        private <Q extends AutoScalingRequest, S> S record(Q request, AwsServiceException failure, Function<Q, S> answer) {
            calls.add(request);
            if (failure != null) {
                throw failure;
            }
            return answer.apply(request);
        }

        @Override
        public CreateAutoScalingGroupResponse createAutoScalingGroup(CreateAutoScalingGroupRequest request) {
            return record(request, createFailure, r -> CreateAutoScalingGroupResponse.builder().build());
        }

        @Override
        public DescribeAutoScalingGroupsResponse describeAutoScalingGroups(DescribeAutoScalingGroupsRequest request) {
            return record(request, null, r -> DescribeAutoScalingGroupsResponse.builder()
                    .autoScalingGroups(describes.remove()).build());
        }

        @Override
        public PutScalingPolicyResponse putScalingPolicy(PutScalingPolicyRequest request) {
            return record(request, null, r -> PutScalingPolicyResponse.builder().build());
        }

        @Override
        public UpdateAutoScalingGroupResponse updateAutoScalingGroup(UpdateAutoScalingGroupRequest request) {
            return record(request, null, r -> UpdateAutoScalingGroupResponse.builder().build());
        }

        @Override
        public DeleteAutoScalingGroupResponse deleteAutoScalingGroup(DeleteAutoScalingGroupRequest request) {
            return record(request, deleteFailure, r -> DeleteAutoScalingGroupResponse.builder().build());
        }

        @Override
        public SetDesiredCapacityResponse setDesiredCapacity(SetDesiredCapacityRequest request) {
            return record(request, null, r -> SetDesiredCapacityResponse.builder().build());
        }

        @Override
        public SetInstanceProtectionResponse setInstanceProtection(SetInstanceProtectionRequest request) {
            return record(request, null, r -> SetInstanceProtectionResponse.builder().build());
        }

        @Override
        public TerminateInstanceInAutoScalingGroupResponse terminateInstanceInAutoScalingGroup(
                TerminateInstanceInAutoScalingGroupRequest request) {
            return record(request, null, r -> TerminateInstanceInAutoScalingGroupResponse.builder().build());
        }

        @Override
        public String serviceName() {
            return SERVICE_NAME;
        }

        @Override
        public void close() {}
    }
}
