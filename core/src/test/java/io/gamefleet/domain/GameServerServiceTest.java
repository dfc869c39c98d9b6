package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static io.gamefleet.domain.Fleet.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.gamefleet.domain.GameServerService.Registration;
import io.gamefleet.domain.GameServerService.Update;
import io.gamefleet.domain.fakes.FakeCompute;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Registration, descriptions, listings, updates and deregistration of game servers (claims: {@link GameServerClaimTest}). */
class GameServerServiceTest {
    private final Fleet fleet = new Fleet();
    private final GameServerService service = fleet.gameServers();

    @BeforeEach
    void anActiveGroupWithAnInstance() {
        fleet.activeGroup();
        fleet.launch("i-1", C5);
    }

    /** The failure's kind and exact message. */
    static void fails(ThrowingCallable call, ErrorKind kind, String message) {
        GamefleetException e = catchThrowableOfType(call, GamefleetException.class);
        assertThat(e).as("a GamefleetException").isNotNull();
        assertThat(e.kind()).isEqualTo(kind);
        assertThat(e).hasMessage(message);
    }

    private static Registration registration(String gameServerId, String instanceId) {
        return new Registration(GROUP, gameServerId, instanceId, Optional.of("10.0.0.1:7777"), Optional.of("map=dust"));
    }

    private GameServer update(String gameServerId, Optional<String> data, Optional<UtilizationStatus> status,
            boolean healthy) {
        return service.update(new Update(GROUP, gameServerId, data, status, healthy), Caller.UNBOUND);
    }

    // ---- RegisterGameServer ----------------------------------------------------------------

    @Test
    void registrationStoresAnAvailableHealthyServerWithItsInstancesStatusAndLaunchTime() {
        fleet.clock.advance(Duration.ofSeconds(5));
        fleet.setInstanceStatus(GROUP, "i-1", InstanceStatus.DRAINING);

        GameServer s = service.register(registration("gs-1", "i-1"), Caller.onInstance("i-1"));

        Instant now = T0.plusSeconds(5);
        assertThat(s.gameServerGroupName()).isEqualTo(GROUP);
        assertThat(s.connectionInfo()).isEqualTo("10.0.0.1:7777");
        assertThat(s.gameServerData()).isEqualTo("map=dust");
        assertThat(s.utilizationStatus()).isEqualTo(UtilizationStatus.AVAILABLE);
        assertThat(s.registrationTime()).isEqualTo(now);
        assertThat(s.lastHealthCheckTime()).isEqualTo(now);
        assertThat(s.claimExpiresAt()).isNull();
        assertThat(s.instanceStatus()).isEqualTo(InstanceStatus.DRAINING);
        assertThat(s.instanceLaunchTime()).isEqualTo(T0.minus(Duration.ofHours(1)));
        assertThat(fleet.server("gs-1")).isEqualTo(s);
    }

    @Test
    void aDuplicateIdAndAGroupThatIsNotActiveAreConflictsEachWithItsOwnMessage() {
        fleet.register("gs-1", "i-1");
        fails(() -> service.register(registration("gs-1", "i-1"), Caller.UNBOUND), ErrorKind.CONFLICT,
                "a game server with id gs-1 is already registered (ids are unique across all game server groups)");

        fleet.groupService().delete(GROUP, DeleteOption.SAFE_DELETE);
        fails(() -> service.register(registration("gs-2", "i-1"), Caller.UNBOUND), ErrorKind.CONFLICT,
                "RegisterGameServer needs an ACTIVE game server group; arena is DELETE_SCHEDULED");
        assertThat(fleet.servers.find("gs-2")).isEmpty();
    }

    @Test
    void aGroupThatDoesNotExistIsNotFound() {
        fails(() -> service.register(new Registration("nowhere", "gs-1", "i-1", Optional.empty(), Optional.empty()),
                Caller.UNBOUND), ErrorKind.NOT_FOUND, "game server group nowhere does not exist");
    }

    @Test
    void aCallerBoundToAnotherInstanceIsUnauthorized() {
        fails(() -> service.register(registration("gs-1", "i-1"), Caller.onInstance("i-2")), ErrorKind.UNAUTHORIZED,
                "a game server process may only act on game servers of its own instance");
        assertThat(fleet.servers.find("gs-1")).isEmpty();
    }

    @Test
    void anInstanceNotYetRecordedIsLookedUpInTheScalingGroupOnceAndRecordedAsActive() {
        fleet.replacement(GROUP, "i-new", C5, true);
        int describesBefore = fleet.compute.calls(FakeCompute.DESCRIBE_SCALING_GROUP).size();

        assertThat(service.register(registration("gs-1", "i-new"), Caller.ADMINISTRATOR).instanceStatus())
                .isEqualTo(InstanceStatus.ACTIVE);
        assertThat(fleet.instances.find(GROUP, "i-new")).map(GameServerInstance::instanceStatus)
                .contains(InstanceStatus.ACTIVE);
        service.register(registration("gs-2", "i-new"), Caller.ADMINISTRATOR);

        assertThat(fleet.compute.calls(FakeCompute.DESCRIBE_SCALING_GROUP)).hasSize(describesBefore + 1);
    }

    @Test
    void anInstanceTheScalingGroupDoesNotHaveIsInvalid() {
        fails(() -> service.register(registration("gs-1", "i-elsewhere"), Caller.ADMINISTRATOR), ErrorKind.INVALID_REQUEST,
                "InstanceId i-elsewhere is not an instance of game server group arena (its Auto Scaling group gamefleet-arena does not have it)");
        assertThat(fleet.instances.find(GROUP, "i-elsewhere")).isEmpty();
    }

    @Test
    void anInstanceBeingInterruptedTakesNoNewServer() {
        fleet.setInstanceStatus(GROUP, "i-1", InstanceStatus.SPOT_TERMINATING);
        fails(() -> service.register(registration("gs-1", "i-1"), Caller.UNBOUND), ErrorKind.CONFLICT,
                "instance i-1 is being interrupted and takes no new game servers");
        assertThat(fleet.servers.find("gs-1")).isEmpty();
    }

    // ---- DescribeGameServer and ListGameServers ------------------------------------------

    @Test
    void describeFindsTheServerByGroupNameOrArnOnlyInItsGroupAndForItsOwnInstance() {
        fleet.activeGroup("other", b -> b);
        GameServer s = fleet.register("gs-1", "i-1");

        assertThat(service.describe(GROUP, "gs-1", Caller.onInstance("i-1"))).isEqualTo(s);
        assertThat(service.describe(Fleet.SETTINGS.groupArn(GROUP), "gs-1", Caller.UNBOUND)).isEqualTo(s);
        fails(() -> service.describe("other", "gs-1", Caller.UNBOUND), ErrorKind.NOT_FOUND,
                "game server gs-1 is not registered in game server group other");
        fails(() -> service.describe(GROUP, "gs-1", Caller.onInstance("i-2")), ErrorKind.UNAUTHORIZED,
                "a game server process may only act on game servers of its own instance");
    }

    @Test
    void listingPagesInRegistrationOrderEitherWay() {
        for (String id : List.of("gs-a", "gs-b", "gs-c", "gs-d", "gs-e")) {
            fleet.register(id, "i-1");
            fleet.clock.advance(Duration.ofSeconds(1));
        }
        assertThat(pages(Optional.empty())).containsExactly(List.of("gs-a", "gs-b"), List.of("gs-c", "gs-d"), List.of("gs-e"));
        assertThat(pages(Optional.of(SortOrder.DESCENDING)))
                .containsExactly(List.of("gs-e", "gs-d"), List.of("gs-c", "gs-b"), List.of("gs-a"));

        // A token is bound to its listing: the ascending one is no good for the descending one.
        String ascending = service.list(GROUP, Optional.of(SortOrder.ASCENDING), 2, Optional.empty()).cursor().orElseThrow();
        fails(() -> service.list(GROUP, Optional.of(SortOrder.DESCENDING), 2, Optional.of(ascending)),
                ErrorKind.INVALID_REQUEST, "NextToken is not a token this listing issued");
        fails(() -> service.list("nowhere", Optional.empty(), 2, Optional.empty()), ErrorKind.NOT_FOUND,
                "game server group nowhere does not exist");
    }

    /** The ids of each page of ListGameServers, two a page, token to token. */
    private List<List<String>> pages(Optional<SortOrder> order) {
        List<List<String>> pages = new java.util.ArrayList<>();
        Optional<String> token = Optional.empty();
        do {
            Page<GameServer> page = service.list(GROUP, order, 2, token);
            if (!page.items().isEmpty()) {
                pages.add(page.items().stream().map(GameServer::gameServerId).toList());
            }
            token = page.cursor();
        } while (token.isPresent());
        return pages;
    }

    // ---- UpdateGameServer ------------------------------------------------------------------

    @Test
    void aHeartbeatMovesTheHealthCheckTimeAndDataIsReplaced() {
        fleet.register("gs-1", "i-1");
        fleet.clock.advance(Duration.ofSeconds(30));

        GameServer quiet = update("gs-1", Optional.of("map=mirage"), Optional.empty(), false);
        assertThat(quiet.gameServerData()).isEqualTo("map=mirage");
        assertThat(quiet.lastHealthCheckTime()).as("no heartbeat asked for").isEqualTo(T0);

        GameServer beat = update("gs-1", Optional.empty(), Optional.empty(), true);
        assertThat(beat.lastHealthCheckTime()).isEqualTo(T0.plusSeconds(30));
        assertThat(beat.gameServerData()).as("absent data is kept").isEqualTo("map=mirage");
        assertThat(fleet.server("gs-1")).isEqualTo(beat);
    }

    @Test
    void utilizedEndsTheClaimAndNeverReturnsToAvailable() {
        fleet.register("gs-1", "i-1");
        assertThat(fleet.claim(GROUP).claimExpiresAt()).isEqualTo(T0.plus(Fleet.CLAIM_TTL));

        GameServer inPlay = update("gs-1", Optional.empty(), Optional.of(UtilizationStatus.UTILIZED), true);
        assertThat(inPlay.utilizationStatus()).isEqualTo(UtilizationStatus.UTILIZED);
        assertThat(inPlay.claimExpiresAt()).isNull();
        assertThat(update("gs-1", Optional.empty(), Optional.of(UtilizationStatus.UTILIZED), true).utilizationStatus())
                .as("setting the status it has succeeds").isEqualTo(UtilizationStatus.UTILIZED);

        fails(() -> update("gs-1", Optional.empty(), Optional.of(UtilizationStatus.AVAILABLE), true),
                ErrorKind.INVALID_REQUEST,
                "game server gs-1 is UTILIZED and cannot return to AVAILABLE; deregister it when its game ends");
        assertThat(fleet.server("gs-1").utilizationStatus()).isEqualTo(UtilizationStatus.UTILIZED);
    }

    @Test
    void anAvailableServerMayBeSetAvailableAgain() {
        fleet.register("gs-1", "i-1");
        assertThat(update("gs-1", Optional.empty(), Optional.of(UtilizationStatus.AVAILABLE), true).utilizationStatus())
                .isEqualTo(UtilizationStatus.AVAILABLE);
    }

    @Test
    void whileDeletionIsScheduledRunningGamesReportButNoNewGameStarts() {
        fleet.register("gs-playing", "i-1");
        fleet.register("gs-idle", "i-1");
        fleet.utilize("gs-playing");
        fleet.groupService().delete(GROUP, DeleteOption.SAFE_DELETE);
        fleet.clock.advance(Duration.ofSeconds(10));

        assertThat(update("gs-idle", Optional.of("x"), Optional.empty(), true).lastHealthCheckTime())
                .isEqualTo(T0.plusSeconds(10));
        assertThat(update("gs-playing", Optional.empty(), Optional.empty(), true).lastHealthCheckTime())
                .isEqualTo(T0.plusSeconds(10));
        fails(() -> update("gs-idle", Optional.empty(), Optional.of(UtilizationStatus.UTILIZED), true),
                ErrorKind.CONFLICT, "UpdateGameServer to UTILIZED needs an ACTIVE game server group; arena is DELETE_SCHEDULED");
        assertThat(fleet.server("gs-idle").utilizationStatus()).isEqualTo(UtilizationStatus.AVAILABLE);
    }

    @Test
    void whileDeletionIsScheduledAGameInPlayMaySayUtilizedAgain() {
        fleet.register("gs-playing", "i-1");
        fleet.utilize("gs-playing");
        fleet.groupService().delete(GROUP, DeleteOption.SAFE_DELETE);
        fleet.clock.advance(Duration.ofSeconds(10));

        // Its heartbeat repeats the status it has: no new game, so no error for a running game.
        GameServer s = update("gs-playing", Optional.of("round=2"), Optional.of(UtilizationStatus.UTILIZED), true);
        assertThat(s.lastHealthCheckTime()).isEqualTo(T0.plusSeconds(10));
        assertThat(s.gameServerData()).isEqualTo("round=2");
        assertThat(s.utilizationStatus()).isEqualTo(UtilizationStatus.UTILIZED);
    }

    @Test
    void onceTheGroupIsBeingDeletedNoUpdateIsTaken() {
        fleet.register("gs-1", "i-1");
        fleet.groupService().delete(GROUP, DeleteOption.FORCE_DELETE);
        fleet.lifecycle().startDeleting(GROUP);
        fails(() -> update("gs-1", Optional.empty(), Optional.empty(), true), ErrorKind.CONFLICT,
                "UpdateGameServer needs an ACTIVE game server group; arena is DELETING");
    }

    @Test
    void anUpdateOfAnotherInstancesServerOrOfNoServerSaysWhy() {
        fleet.register("gs-1", "i-1");
        fails(() -> service.update(new Update(GROUP, "gs-1", Optional.of("x"), Optional.empty(), true),
                Caller.onInstance("i-2")), ErrorKind.UNAUTHORIZED,
                "a game server process may only act on game servers of its own instance");
        assertThat(fleet.server("gs-1").gameServerData()).isNull();
        fails(() -> update("gs-none", Optional.empty(), Optional.empty(), true), ErrorKind.NOT_FOUND,
                "game server gs-none is not registered in game server group arena");
    }

    // ---- DeregisterGameServer --------------------------------------------------------------

    @Test
    void deregistrationRemovesTheServerOnlyForItsOwnInstance() {
        fleet.register("gs-1", "i-1");
        fails(() -> service.deregister(GROUP, "gs-1", Caller.onInstance("i-2")), ErrorKind.UNAUTHORIZED,
                "a game server process may only act on game servers of its own instance");
        assertThat(fleet.servers.find("gs-1")).isPresent();

        service.deregister(GROUP, "gs-1", Caller.onInstance("i-1"));
        assertThat(fleet.servers.find("gs-1")).isEmpty();
        fails(() -> service.deregister(GROUP, "gs-1", Caller.UNBOUND), ErrorKind.NOT_FOUND,
                "game server gs-1 is not registered in game server group arena");
    }

    @Test
    void deregistrationWorksWhateverTheGroupStatus() {
        fleet.register("gs-1", "i-1");
        fleet.utilize("gs-1");
        fleet.groupService().delete(GROUP, DeleteOption.SAFE_DELETE);
        service.deregister(Fleet.SETTINGS.groupArn(GROUP), "gs-1", Caller.UNBOUND);
        assertThat(fleet.servers.find("gs-1")).isEmpty();
    }
}
