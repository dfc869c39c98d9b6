package io.gamefleet.sdktests;

import io.gamefleet.sdktests.LocalGamefleet.Caller;
import io.gamefleet.sdktests.LocalGamefleet.Profile;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.gamelift.GameLiftClient;
import software.amazon.awssdk.services.gamelift.GameLiftClientBuilder;
import software.amazon.awssdk.services.gamelift.model.GameServerGroup;
import software.amazon.awssdk.services.gamelift.model.GameServerGroupInstanceType;
import software.amazon.awssdk.services.gamelift.model.GameServerGroupStatus;
import software.amazon.awssdk.services.gamelift.model.GameServerInstance;
import software.amazon.awssdk.services.gamelift.model.InstanceDefinition;

/**
 * The official Java v2 GameLift client as a FleetIQ user builds it, with nothing changed but the
 * endpoint: it signs for {@code gamelift} and speaks AWS JSON 1.1 to {@code POST /}.
 */
final class JavaClients {
    static final Duration ACTIVATION_TIMEOUT = Duration.ofSeconds(30);
    static final String ROLE_ARN = "arn:aws:iam::123456789012:role/fleetiq";

    private JavaClients() {}

    static GameLiftClient gameLift(Profile profile, Caller caller) {
        return builder(profile, caller).build();
    }

    /** Retries off, so that each call is one request and a refusal is seen as it came. */
    static GameLiftClientBuilder builder(Profile profile, Caller caller) {
        return GameLiftClient.builder()
                .endpointOverride(profile.endpoint())
                .region(Region.of(LocalGamefleet.REGION))
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(caller.accessKeyId(), caller.secretAccessKey())))
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()));
    }

    /** A group name no other test uses. */
    static String uniqueName(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Creates a group of two instance types, as the README's first request does; returns the response's group. */
    static GameServerGroup createGroup(GameLiftClient gameLift, String name) {
        return gameLift.createGameServerGroup(r -> r.gameServerGroupName(name).roleArn(ROLE_ARN)
                .minSize(1).maxSize(4)
                .launchTemplate(t -> t.launchTemplateName(name + "-lt"))
                .instanceDefinitions(InstanceDefinition.builder().instanceType(GameServerGroupInstanceType.C5_LARGE).build(),
                        InstanceDefinition.builder().instanceType(GameServerGroupInstanceType.M5_LARGE).build()))
                .gameServerGroup();
    }

    /** Polls DescribeGameServerGroup until the group is ACTIVE (activation takes a couple of seconds). */
    static GameServerGroup awaitActive(GameLiftClient gameLift, String name) {
        return Polling.until(name + " ACTIVE", ACTIVATION_TIMEOUT, () -> {
            GameServerGroup group = gameLift.describeGameServerGroup(r -> r.gameServerGroupName(name)).gameServerGroup();
            if (group.status() == GameServerGroupStatus.ERROR) {
                throw new AssertionError(name + " went to ERROR: " + group.statusReason());
            }
            return group.status() == GameServerGroupStatus.ACTIVE ? Optional.of(group) : Optional.empty();
        });
    }

    /** Polls DescribeGameServerGroup until a group whose deletion was scheduled is DELETED. */
    static GameServerGroup awaitDeleted(GameLiftClient gameLift, String name) {
        return Polling.until(name + " DELETED", ACTIVATION_TIMEOUT, () -> Optional.of(
                gameLift.describeGameServerGroup(r -> r.gameServerGroupName(name)).gameServerGroup())
                .filter(g -> g.status() == GameServerGroupStatus.DELETED));
    }

    /** An instance of an ACTIVE group, to register game servers on. */
    static String anInstance(GameLiftClient gameLift, String group) {
        return Polling.until("an instance of " + group, ACTIVATION_TIMEOUT, () -> gameLift
                .describeGameServerInstances(r -> r.gameServerGroupName(group)).gameServerInstances().stream()
                .map(GameServerInstance::instanceId).findFirst());
    }
}
