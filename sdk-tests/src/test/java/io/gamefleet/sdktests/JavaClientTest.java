package io.gamefleet.sdktests;

import static io.gamefleet.sdktests.JavaClients.anInstance;
import static io.gamefleet.sdktests.JavaClients.awaitActive;
import static io.gamefleet.sdktests.JavaClients.createGroup;
import static io.gamefleet.sdktests.JavaClients.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.sdktests.LocalGamefleet.Profile;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.gamelift.GameLiftClient;
import software.amazon.awssdk.services.gamelift.model.BalancingStrategy;
import software.amazon.awssdk.services.gamelift.model.ClaimGameServerResponse;
import software.amazon.awssdk.services.gamelift.model.ConflictException;
import software.amazon.awssdk.services.gamelift.model.GameLiftException;
import software.amazon.awssdk.services.gamelift.model.GameServer;
import software.amazon.awssdk.services.gamelift.model.GameServerClaimStatus;
import software.amazon.awssdk.services.gamelift.model.GameServerGroup;
import software.amazon.awssdk.services.gamelift.model.GameServerGroupAction;
import software.amazon.awssdk.services.gamelift.model.GameServerGroupDeleteOption;
import software.amazon.awssdk.services.gamelift.model.GameServerGroupInstanceType;
import software.amazon.awssdk.services.gamelift.model.GameServerGroupStatus;
import software.amazon.awssdk.services.gamelift.model.GameServerHealthCheck;
import software.amazon.awssdk.services.gamelift.model.GameServerInstance;
import software.amazon.awssdk.services.gamelift.model.GameServerInstanceStatus;
import software.amazon.awssdk.services.gamelift.model.GameServerUtilizationStatus;
import software.amazon.awssdk.services.gamelift.model.InstanceDefinition;
import software.amazon.awssdk.services.gamelift.model.InvalidRequestException;
import software.amazon.awssdk.services.gamelift.model.LimitExceededException;
import software.amazon.awssdk.services.gamelift.model.ListGameServersResponse;
import software.amazon.awssdk.services.gamelift.model.NotFoundException;
import software.amazon.awssdk.services.gamelift.model.OutOfCapacityException;
import software.amazon.awssdk.services.gamelift.model.SortOrder;
import software.amazon.awssdk.services.gamelift.model.UnauthorizedException;

/**
 * The official AWS SDK for Java v2 GameLift client (2.40.2, AWS JSON 1.1), changed only by its
 * endpoint, against the local profile: every one of the 14 operations, every modelled error that can
 * be provoked, and pagination.
 *
 * <p>Two of the client's modelled errors cannot be provoked on purpose: InternalServiceException is
 * Gamefleet's answer to the unexpected (a store or workflow failure), and LimitExceededException is
 * never sent, as Gamefleet has no quotas.
 */
@ExtendWith(LocalGamefleet.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JavaClientTest {
    private GameLiftClient admin;
    private GameLiftClient matchmaker;
    private GameLiftClient gameServerHost;
    /** ACTIVE; the operations' group. */
    private String arena;
    /** ACTIVE, and no game server ever registers in it; updated, suspended and resumed. */
    private String empty;
    /** ACTIVE; deleted by its test. */
    private String doomed;
    /** ACTIVE; the paginated listing's group. */
    private String pages;
    /** ACTIVE; its instance is filled to the stage's cap by its test. */
    private String capped;
    private String instance;

    @BeforeAll
    void groups(Profile profile) {
        admin = JavaClients.gameLift(profile, LocalGamefleet.ADMIN);
        matchmaker = JavaClients.gameLift(profile, LocalGamefleet.MATCHMAKER);
        gameServerHost = JavaClients.gameLift(profile, LocalGamefleet.GAME_SERVER);
        arena = uniqueName("java-arena");
        empty = uniqueName("java-empty");
        doomed = uniqueName("java-doomed");
        pages = uniqueName("java-pages");
        capped = uniqueName("java-capped");
        // Created together, they activate together.
        for (String name : List.of(arena, empty, doomed, pages, capped)) {
            createGroup(admin, name);
        }
        for (String name : List.of(arena, empty, doomed, pages, capped)) {
            awaitActive(admin, name);
        }
        instance = anInstance(admin, arena);
    }

    @AfterAll
    void close() {
        for (GameLiftClient client : new GameLiftClient[] {admin, matchmaker, gameServerHost}) {
            if (client != null) {
                client.close();
            }
        }
    }

    // ---- the 14 operations ----

    @Test
    void createGameServerGroup() {
        String name = uniqueName("java-create");
        GameServerGroup group = createGroup(admin, name);
        assertThat(group.gameServerGroupName()).isEqualTo(name);
        assertThat(group.gameServerGroupArn())
                .isEqualTo("arn:aws:gamelift:us-east-1:" + LocalGamefleet.ACCOUNT + ":gameservergroup/" + name);
        assertThat(group.status()).isEqualTo(GameServerGroupStatus.NEW);
        assertThat(group.instanceDefinitions()).extracting(InstanceDefinition::instanceType)
                .containsExactly(GameServerGroupInstanceType.C5_LARGE, GameServerGroupInstanceType.M5_LARGE);
        assertThat(group.balancingStrategy()).isEqualTo(BalancingStrategy.SPOT_PREFERRED);
        assertThat(group.roleArn()).isEqualTo(JavaClients.ROLE_ARN);
        assertThat(group.creationTime()).isBetween(Instant.now().minusSeconds(60), Instant.now().plusSeconds(1));
    }

    @Test
    void listGameServerGroups() {
        List<String> names = new ArrayList<>();
        admin.listGameServerGroupsPaginator(r -> r.limit(2)).gameServerGroups()
                .forEach(g -> names.add(g.gameServerGroupName()));
        assertThat(names).contains(arena, empty, doomed, pages).doesNotHaveDuplicates();
        // A MATCHMAKER may list too.
        assertThat(matchmaker.listGameServerGroups(r -> r.limit(100)).gameServerGroups()).isNotEmpty();
    }

    @Test
    void describeGameServerGroup() {
        GameServerGroup group = matchmaker.describeGameServerGroup(r -> r.gameServerGroupName(arena)).gameServerGroup();
        assertThat(group.status()).isEqualTo(GameServerGroupStatus.ACTIVE);
        assertThat(group.autoScalingGroupArn()).contains("gamefleet-" + arena);
        assertThat(group.lastUpdatedTime()).isAfterOrEqualTo(group.creationTime());
        // The group's ARN names it as well as its name does.
        assertThat(admin.describeGameServerGroup(r -> r.gameServerGroupName(group.gameServerGroupArn()))
                .gameServerGroup().gameServerGroupName()).isEqualTo(arena);
    }

    @Test
    void updateGameServerGroup() {
        GameServerGroup updated = admin.updateGameServerGroup(r -> r.gameServerGroupName(empty)
                .balancingStrategy(BalancingStrategy.ON_DEMAND_ONLY)
                .instanceDefinitions(InstanceDefinition.builder().instanceType(GameServerGroupInstanceType.C5_LARGE).build(),
                        InstanceDefinition.builder().instanceType(GameServerGroupInstanceType.C5_XLARGE)
                                .weightedCapacity("2").build()))
                .gameServerGroup();
        assertThat(updated.balancingStrategy()).isEqualTo(BalancingStrategy.ON_DEMAND_ONLY);
        assertThat(updated.instanceDefinitions()).extracting(InstanceDefinition::weightedCapacity)
                .containsExactly(null, "2");
    }

    @Test
    void deleteGameServerGroup() {
        GameServerGroup scheduled = admin.deleteGameServerGroup(r -> r.gameServerGroupName(doomed)
                .deleteOption(GameServerGroupDeleteOption.FORCE_DELETE)).gameServerGroup();
        assertThat(scheduled.status()).isEqualTo(GameServerGroupStatus.DELETE_SCHEDULED);
        assertThat(JavaClients.awaitDeleted(admin, doomed).gameServerGroupName()).isEqualTo(doomed);
    }

    @Test
    void suspendAndResumeGameServerGroup() {
        GameServerGroup suspended = admin.suspendGameServerGroup(r -> r.gameServerGroupName(empty)
                .suspendActions(GameServerGroupAction.REPLACE_INSTANCE_TYPES)).gameServerGroup();
        assertThat(suspended.suspendedActions()).containsExactly(GameServerGroupAction.REPLACE_INSTANCE_TYPES);
        GameServerGroup resumed = admin.resumeGameServerGroup(r -> r.gameServerGroupName(empty)
                .resumeActions(GameServerGroupAction.REPLACE_INSTANCE_TYPES)).gameServerGroup();
        assertThat(resumed.suspendedActions()).isEmpty();
    }

    @Test
    void describeGameServerInstances() {
        List<GameServerInstance> all = matchmaker.describeGameServerInstances(r -> r.gameServerGroupName(arena))
                .gameServerInstances();
        assertThat(all).extracting(GameServerInstance::instanceId).contains(instance);
        assertThat(all).allSatisfy(i -> {
            assertThat(i.gameServerGroupName()).isEqualTo(arena);
            assertThat(i.instanceStatus()).isEqualTo(GameServerInstanceStatus.ACTIVE);
        });
        // Asked by id: only the group's own instances come back.
        assertThat(admin.describeGameServerInstances(r -> r.gameServerGroupName(arena)
                .instanceIds(instance, "i-0000000000000dead")).gameServerInstances())
                .extracting(GameServerInstance::instanceId).containsExactly(instance);
    }

    @Test
    void registerDescribeUpdateAndDeregisterGameServer() {
        String id = uniqueName("java-server");
        GameServer registered = admin.registerGameServer(r -> r.gameServerGroupName(arena).gameServerId(id)
                .instanceId(instance).connectionInfo("127.0.0.1:7777").gameServerData("map=dunes")).gameServer();
        assertThat(registered.utilizationStatus()).isEqualTo(GameServerUtilizationStatus.AVAILABLE);
        assertThat(registered.claimStatus()).isNull();
        assertThat(registered.registrationTime()).isNotNull();

        GameServer described = matchmaker.describeGameServer(r -> r.gameServerGroupName(arena).gameServerId(id))
                .gameServer();
        assertThat(described.connectionInfo()).isEqualTo("127.0.0.1:7777");
        assertThat(described.gameServerData()).isEqualTo("map=dunes");
        assertThat(described.instanceId()).isEqualTo(instance);

        GameServer heartbeat = admin.updateGameServer(r -> r.gameServerGroupName(arena).gameServerId(id)
                .healthCheck(GameServerHealthCheck.HEALTHY).gameServerData("map=canyon")).gameServer();
        assertThat(heartbeat.gameServerData()).isEqualTo("map=canyon");
        assertThat(heartbeat.lastHealthCheckTime()).isAfterOrEqualTo(registered.lastHealthCheckTime());
        GameServer utilized = admin.updateGameServer(r -> r.gameServerGroupName(arena).gameServerId(id)
                .utilizationStatus(GameServerUtilizationStatus.UTILIZED)).gameServer();
        assertThat(utilized.utilizationStatus()).isEqualTo(GameServerUtilizationStatus.UTILIZED);

        admin.deregisterGameServer(r -> r.gameServerGroupName(arena).gameServerId(id));
        assertThatThrownBy(() -> admin.describeGameServer(r -> r.gameServerGroupName(arena).gameServerId(id)))
                .isInstanceOf(NotFoundException.class);
    }

    @Test
    void listGameServers() {
        String first = uniqueName("java-listed");
        String second = uniqueName("java-listed");
        for (String id : List.of(first, second)) {
            admin.registerGameServer(r -> r.gameServerGroupName(arena).gameServerId(id).instanceId(instance));
        }
        List<String> descending = new ArrayList<>();
        matchmaker.listGameServersPaginator(r -> r.gameServerGroupName(arena).sortOrder(SortOrder.DESCENDING))
                .gameServers().forEach(s -> descending.add(s.gameServerId()));
        assertThat(descending).containsSubsequence(second, first);
    }

    @Test
    void claimGameServer() {
        String id = uniqueName("java-claimed");
        admin.registerGameServer(r -> r.gameServerGroupName(arena).gameServerId(id).instanceId(instance)
                .connectionInfo("127.0.0.1:7776"));
        ClaimGameServerResponse claimed = matchmaker.claimGameServer(r -> r.gameServerGroupName(arena).gameServerId(id)
                .gameServerData("players=4"));
        assertThat(claimed.gameServer().claimStatus()).isEqualTo(GameServerClaimStatus.CLAIMED);
        assertThat(claimed.gameServer().connectionInfo()).isEqualTo("127.0.0.1:7776");
        assertThat(claimed.gameServer().gameServerData()).isEqualTo("players=4");
        assertThat(claimed.gameServer().lastClaimTime()).isNotNull();
        // Without an id, Gamefleet picks one.
        admin.registerGameServer(r -> r.gameServerGroupName(arena).gameServerId(uniqueName("java-pick"))
                .instanceId(instance));
        assertThat(matchmaker.claimGameServer(r -> r.gameServerGroupName(arena)).gameServer().claimStatus())
                .isEqualTo(GameServerClaimStatus.CLAIMED);
    }

    // ---- the modelled errors ----

    @Test
    void invalidRequestException() {
        InvalidRequestException e = thrown(InvalidRequestException.class,
                () -> admin.createGameServerGroup(r -> r.gameServerGroupName(uniqueName("java-bad"))
                        .roleArn(JavaClients.ROLE_ARN).minSize(3).maxSize(2)
                        .launchTemplate(t -> t.launchTemplateName("arena-lt"))
                        .instanceDefinitions(InstanceDefinition.builder().instanceType("c5.large").build(),
                                InstanceDefinition.builder().instanceType("m5.large").build())));
        assertThat(e.getMessage()).contains("MinSize");
        assertThat(e.requestId()).as("the request id the edge gave the request").isNotBlank();
        // UTILIZED never goes back to AVAILABLE.
        String id = uniqueName("java-used");
        admin.registerGameServer(r -> r.gameServerGroupName(arena).gameServerId(id).instanceId(instance));
        admin.updateGameServer(r -> r.gameServerGroupName(arena).gameServerId(id)
                .utilizationStatus(GameServerUtilizationStatus.UTILIZED));
        thrown(InvalidRequestException.class, () -> admin.updateGameServer(r -> r.gameServerGroupName(arena)
                .gameServerId(id).utilizationStatus(GameServerUtilizationStatus.AVAILABLE)));
    }

    @Test
    void notFoundException() {
        NotFoundException e = thrown(NotFoundException.class,
                () -> matchmaker.describeGameServerGroup(r -> r.gameServerGroupName("java-no-such-group")));
        assertThat(e.getMessage()).contains("java-no-such-group");
        thrown(NotFoundException.class,
                () -> admin.describeGameServer(r -> r.gameServerGroupName(arena).gameServerId("java-no-such-server")));
    }

    @Test
    void conflictException() {
        thrown(ConflictException.class, () -> createGroup(admin, arena));
    }

    @Test
    void outOfCapacityException() {
        thrown(OutOfCapacityException.class, () -> matchmaker.claimGameServer(r -> r.gameServerGroupName(empty)));
    }

    /** The stage's maxGameServersPerInstance (16 by default): the next registration on the instance, whoever makes it. */
    @Test
    void limitExceededException() {
        String full = anInstance(admin, capped);
        for (int n = 0; n < 16; n++) {
            String id = uniqueName("java-cap");
            admin.registerGameServer(r -> r.gameServerGroupName(capped).gameServerId(id).instanceId(full)
                    .connectionInfo("127.0.0.1:7777"));
        }
        LimitExceededException e = thrown(LimitExceededException.class, () -> admin.registerGameServer(r -> r
                .gameServerGroupName(capped).gameServerId(uniqueName("java-cap")).instanceId(full)));
        assertThat(e.getMessage()).contains("has 16 game servers registered, the most one instance may have");
        assertThat(e.statusCode()).isEqualTo(400);
    }

    @Test
    void unauthorizedExceptionForARoleOutsideTheOperation() {
        // The JSON door checks the caller's role itself: a MATCHMAKER may not create groups.
        UnauthorizedException e = thrown(UnauthorizedException.class, () -> createGroup(matchmaker, uniqueName("java-mm")));
        assertThat(e.getMessage()).contains("MATCHMAKER");
        thrown(UnauthorizedException.class, () -> gameServerHost.claimGameServer(r -> r.gameServerGroupName(arena)));
    }

    @Test
    void unauthorizedExceptionForAGameServerOfAnotherInstance() {
        // The GAME_SERVER caller is bound to another instance than the one it registers on.
        UnauthorizedException e = thrown(UnauthorizedException.class, () -> gameServerHost.registerGameServer(r -> r
                .gameServerGroupName(arena).gameServerId(uniqueName("java-foreign")).instanceId(instance)));
        assertThat(e.getMessage()).contains("own instance");
        // On its own instance, it passes the binding and meets the next check: not an instance of the group.
        thrown(InvalidRequestException.class, () -> gameServerHost.registerGameServer(r -> r.gameServerGroupName(arena)
                .gameServerId(uniqueName("java-own")).instanceId(LocalGamefleet.BOUND_INSTANCE)));
    }

    // ---- pagination ----

    @Test
    void listGameServersPageByPage() {
        String instanceOfPages = anInstance(admin, pages);
        List<String> registered = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            String id = "java-page-" + i + "-" + uniqueName("s");
            admin.registerGameServer(r -> r.gameServerGroupName(pages).gameServerId(id).instanceId(instanceOfPages));
            registered.add(id);
        }
        List<String> listed = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        String token = null;
        do {
            String next = token;
            ListGameServersResponse page = matchmaker.listGameServers(r -> r.gameServerGroupName(pages).limit(3)
                    .nextToken(next));
            sizes.add(page.gameServers().size());
            page.gameServers().forEach(s -> listed.add(s.gameServerId()));
            token = page.nextToken();
        } while (token != null && sizes.size() < 10);
        assertThat(token).as("the listing ends").isNull();
        assertThat(sizes).hasSizeGreaterThanOrEqualTo(3).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(3));
        assertThat(listed).containsExactlyElementsOf(registered);

        // The SDK's paginator follows the same tokens.
        List<String> paginated = new ArrayList<>();
        matchmaker.listGameServersPaginator(r -> r.gameServerGroupName(pages).limit(3)).gameServers()
                .forEach(s -> paginated.add(s.gameServerId()));
        assertThat(paginated).containsExactlyElementsOf(registered);

        // A token of another listing is refused.
        String groupsToken = admin.listGameServerGroups(r -> r.limit(1)).nextToken();
        assertThat(groupsToken).isNotNull();
        thrown(InvalidRequestException.class, () -> matchmaker.listGameServers(r -> r.gameServerGroupName(pages)
                .nextToken(groupsToken)));
    }

    /** The modelled exception, as the client maps it: a 400 (JSON 1.1) whose error code is its name. */
    private static <E extends GameLiftException> E thrown(Class<E> type, Runnable call) {
        try {
            call.run();
        } catch (GameLiftException e) {
            assertThat(e).isInstanceOf(type);
            assertThat(e.statusCode()).isEqualTo(400);
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo(type.getSimpleName());
            return type.cast(e);
        }
        throw new AssertionError("expected " + type.getSimpleName());
    }
}
