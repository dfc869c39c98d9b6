package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static io.gamefleet.domain.GameServerServiceTest.fails;
import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.domain.GameServerService.Claim;
import io.gamefleet.domain.GameServerService.Update;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What one container keeps between requests: the claim candidates it read (for
 * {@link ClaimCandidateCache#CANDIDATES_MAX_AGE}) and, for heartbeats, the group's status (for
 * {@link GameServerService#GROUP_STATUS_MAX_AGE}); and the bounds that keeping puts on a group
 * that stops being ACTIVE.
 */
class ClaimCandidatesKeptTest {
    private final Fleet fleet = new Fleet();
    private final List<String> calls = new ArrayList<>();
    /** One container's service: it lives across requests. */
    private GameServerService container;

    @BeforeEach
    void anActiveGroupWithServers() {
        fleet.activeGroup();
        fleet.launch("i-1", C5);
        for (int n = 0; n < 5; n++) {
            fleet.register("gs-" + n, "i-1");
        }
        container = fleet.gameServers(Fleet.around(GameServerRepository.class, fleet.servers, (method, args, proceed) -> {
            calls.add(method);
            return proceed.call();
        }));
    }

    private GameServer claim() {
        return container.claim(new Claim(GROUP, Optional.empty(), Optional.empty(), Optional.empty()));
    }

    private void stopBeingActive() {
        GameServerGroup g = fleet.groups.find(GROUP).orElseThrow();
        fleet.groups.update(g.toBuilder().status(GameServerGroupStatus.ERROR).build());
    }

    @Test
    void aContainerClaimsFromTheCandidatesItReadOneWriteEach() {
        assertThat(List.of(claim(), claim(), claim())).extracting(GameServer::gameServerId)
                .containsExactly("gs-0", "gs-1", "gs-2");
        assertThat(calls).containsExactly("someClaimCandidates", "tryClaim", "tryClaim", "tryClaim");
    }

    @Test
    void theCandidatesAreReadAgainOnceTheyAreOlderThanTheirMaximumAge() {
        claim();
        fleet.clock.advance(ClaimCandidateCache.CANDIDATES_MAX_AGE);
        fleet.register("gs-new", "i-1"); // registered later: no better than the others, but read now
        claim();
        assertThat(calls).containsExactly("someClaimCandidates", "tryClaim", "someClaimCandidates", "tryClaim");
    }

    @Test
    void aGroupThatStopsBeingActiveRefusesClaimsOnceTheCandidatesReadBeforeAreReadAnew() {
        claim();
        stopBeingActive();
        fleet.clock.advance(ClaimCandidateCache.CANDIDATES_RENEWED_AFTER.minusMillis(1));
        assertThat(claim().gameServerId()).as("still within the age of what it read").isEqualTo("gs-1");

        fleet.clock.advance(Duration.ofMillis(1)); // ageing: this claim reads the page anew, and its gate
        fails(this::claim, ErrorKind.CONFLICT, "ClaimGameServer needs an ACTIVE game server group; arena is ERROR");
    }

    @Test
    void aCandidateAnotherContainerTookCostsOneRefusedWriteAndTheNextIsTried() {
        claim();
        fleet.claim(GROUP); // another container, with the same head of the index: takes gs-1
        assertThat(claim().gameServerId()).isEqualTo("gs-2");
        assertThat(calls).containsExactly("someClaimCandidates", "tryClaim", "tryClaim", "tryClaim");
    }

    @Test
    void heartbeatsRelyOnTheGroupStatusTheyReadForItsMaximumAge() {
        Update heartbeat = new Update(GROUP, "gs-0", Optional.empty(), Optional.empty(), true);
        container.update(heartbeat, Caller.UNBOUND);
        stopBeingActive();
        fleet.clock.advance(GameServerService.GROUP_STATUS_MAX_AGE.minusMillis(1));
        container.update(heartbeat, Caller.UNBOUND);

        fleet.clock.advance(Duration.ofMillis(1));
        fails(() -> container.update(heartbeat, Caller.UNBOUND), ErrorKind.CONFLICT,
                "UpdateGameServer needs an ACTIVE game server group; arena is ERROR");
    }

    @Test
    void updatesOfUtilizationAndRegistrationsRelyOnItToo() {
        container.update(new Update(GROUP, "gs-0", Optional.empty(), Optional.empty(), true), Caller.UNBOUND);
        stopBeingActive();
        container.update(new Update(GROUP, "gs-0", Optional.empty(), Optional.of(UtilizationStatus.UTILIZED), false),
                Caller.UNBOUND);
        // The registration's write is conditional on the gate: refused all the same, and the group read says why.
        fails(() -> container.register(new GameServerService.Registration(GROUP, "gs-new", "i-1", Optional.empty(),
                Optional.empty()), Caller.UNBOUND), ErrorKind.CONFLICT,
                "RegisterGameServer needs an ACTIVE game server group; arena is ERROR");
        assertThat(fleet.servers.find("gs-new")).isEmpty();

        fleet.clock.advance(GameServerService.GROUP_STATUS_MAX_AGE);
        fails(() -> container.update(new Update(GROUP, "gs-1", Optional.empty(), Optional.of(UtilizationStatus.UTILIZED),
                false), Caller.UNBOUND), ErrorKind.CONFLICT,
                "UpdateGameServer to UTILIZED needs an ACTIVE game server group; arena is ERROR");
        fails(() -> container.register(new GameServerService.Registration(GROUP, "gs-new", "i-1", Optional.empty(),
                Optional.empty()), Caller.UNBOUND), ErrorKind.CONFLICT,
                "RegisterGameServer needs an ACTIVE game server group; arena is ERROR");
    }
}
