package io.gamefleet.domain;

import static io.gamefleet.domain.Fleet.C5;
import static io.gamefleet.domain.Fleet.GROUP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import io.gamefleet.domain.GameServerService.Claim;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The claim-candidate cache alone and through the claims it serves: what a claim costs in reads
 * and writes of the repository at sparse and dense rates, and how claimers that need fresh
 * candidates at the same time share one read instead of queueing behind each other's.
 */
class ClaimCandidateCacheTest {
    /** Up to 50 servers on each instance: a stage that raised maxGameServersPerInstance. */
    private final Fleet fleet = new Fleet().allowGameServersPerInstance(50);
    /** The repository calls made, by method name. */
    private final List<String> calls = new CopyOnWriteArrayList<>();

    private void groupOf(int servers) {
        fleet.activeGroup();
        for (int i = 0; i < (servers + 49) / 50; i++) {
            fleet.launch("i-" + i, C5);
        }
        for (int n = 0; n < servers; n++) {
            fleet.register("gs-" + n, "i-" + n / 50);
        }
    }

    private GameServerService counted() {
        return fleet.gameServers(Fleet.around(GameServerRepository.class, fleet.servers, (method, args, proceed) -> {
            calls.add(method);
            return proceed.call();
        }));
    }

    private static GameServer claim(GameServerService container) {
        return container.claim(new Claim(GROUP, Optional.empty(), Optional.empty(), Optional.empty()));
    }

    /** Ids are unique across groups only while registered: one that ended may come back in another group at once. */
    @Test
    void aServerJustClaimedInOneGroupDoesNotHideItsIdRegisteredAgainInAnother() {
        fleet.activeGroup();
        fleet.activeGroup("lobby", b -> b);
        fleet.launch(GROUP, "i-arena", C5, Fleet.T0);
        fleet.launch("lobby", "i-lobby", C5, Fleet.T0);
        fleet.register(GROUP, "match-1", "i-arena");
        GameServerService container = fleet.gameServers();
        assertThat(claim(container).gameServerGroupName()).isEqualTo(GROUP);
        container.deregister(GROUP, "match-1", Caller.ADMINISTRATOR);
        fleet.register("lobby", "match-1", "i-lobby");

        GameServer inLobby = container.claim(new Claim("lobby", Optional.empty(), Optional.empty(), Optional.empty()));

        assertThat(inLobby.gameServerGroupName()).isEqualTo("lobby");
        assertThat(inLobby.gameServerId()).isEqualTo("match-1");
    }

    @ParameterizedTest(name = "{0} servers")
    @ValueSource(ints = {10, 5_000})
    void aClaimEveryTwoSecondsIsOneReadOfTheClaimPathAndOneWrite(int servers) {
        groupOf(servers);
        GameServerService container = counted();
        for (int n = 0; n < 5; n++) {
            claim(container);
            fleet.clock.advance(Duration.ofSeconds(2));
        }
        assertThat(calls).containsExactly("someClaimCandidates", "tryClaim", "someClaimCandidates", "tryClaim",
                "someClaimCandidates", "tryClaim", "someClaimCandidates", "tryClaim", "someClaimCandidates", "tryClaim");
    }

    @ParameterizedTest(name = "{0} servers")
    @ValueSource(ints = {10, 5_000})
    void backToBackClaimsShareTheirReads(int servers) {
        groupOf(servers);
        GameServerService container = counted();
        int claims = Math.min(servers, 300);
        Set<String> claimed = new HashSet<>();
        for (int n = 0; n < claims; n++) {
            claimed.add(claim(container).gameServerId());
        }
        assertThat(claimed).hasSize(claims);
        assertThat(calls.stream().filter("tryClaim"::equals)).hasSize(claims);
        assertThat(calls).doesNotContain("claimCandidates");
        assertThat((double) calls.size() / claims).isLessThanOrEqualTo(2);
    }

    /** The cache alone over the fake, whose reads wait for {@code release} once {@code blocked} is set. */
    private final CountDownLatch readStarted = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger reads = new AtomicInteger();
    private volatile RuntimeException readFails;

    private ClaimCandidateCache cacheWithBlockingReads() {
        GameServerRepository blocking = Fleet.around(GameServerRepository.class, fleet.servers, (method, args, proceed) -> {
            if (method.equals("someClaimCandidates")) {
                reads.incrementAndGet();
                readStarted.countDown();
                assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
                if (readFails != null) {
                    throw readFails;
                }
            }
            return proceed.call();
        });
        return new ClaimCandidateCache(blocking, new Groups(fleet.groups), new ClaimPolicy(1, new SplittableRandom(1)));
    }

    private ClaimCondition now() {
        return new ClaimCondition(fleet.clock.instant(), fleet.clock.instant().minusSeconds(60),
                EnumSet.of(InstanceStatus.ACTIVE, InstanceStatus.DRAINING));
    }

    /** Eight claimers that need candidates while one read is in flight; each one's outcome. */
    private List<Object> eightClaimersDuringOneRead(ClaimCandidateCache cache) throws InterruptedException {
        List<Object> outcomes = new CopyOnWriteArrayList<>();
        List<Thread> claimers = new ArrayList<>();
        for (int n = 0; n < 8; n++) {
            Thread t = new Thread(() -> {
                try {
                    outcomes.add(cache.next(GROUP, InstanceStatus.ACTIVE, now(), new ClaimCandidateCache.Reads())
                            .orElseThrow().gameServerId());
                } catch (RuntimeException e) {
                    outcomes.add(e);
                }
            });
            claimers.add(t);
            t.start();
            if (n == 0) {
                assertThat(readStarted.await(10, TimeUnit.SECONDS)).isTrue();
            }
        }
        for (Thread t : claimers.subList(1, claimers.size())) {
            while (t.getState() == Thread.State.RUNNABLE || t.getState() == Thread.State.NEW) {
                Thread.onSpinWait(); // until it waits, on the read in flight or (the lock it must not take) a monitor
            }
        }
        release.countDown();
        for (Thread t : claimers) {
            t.join();
        }
        return outcomes;
    }

    @Test
    @Timeout(30)
    void claimersThatNeedCandidatesWhileAReadIsInFlightShareIt() throws InterruptedException {
        groupOf(20);
        List<Object> outcomes = eightClaimersDuringOneRead(cacheWithBlockingReads());

        assertThat(reads).hasValue(1);
        assertThat(new HashSet<>(outcomes)).hasSize(8).allMatch(o -> o instanceof String);
    }

    @Test
    @Timeout(30)
    void aReadThatFailsAnswersEveryClaimerThatWaitedForItAndNoneWaitsForAnother() throws InterruptedException {
        groupOf(20);
        readFails = new IllegalStateException("DynamoDB timed out");
        List<Object> outcomes = eightClaimersDuringOneRead(cacheWithBlockingReads());

        // Behind a lock, each claimer would have read in turn after the one before it failed.
        assertThat(reads).hasValue(1);
        assertThat(outcomes).hasSize(8).allMatch(o -> o == readFails);
    }

    private GameServer next(ClaimCandidateCache cache) {
        return cache.next(GROUP, InstanceStatus.ACTIVE, now(), new ClaimCandidateCache.Reads()).orElseThrow();
    }

    @Test
    @Timeout(30)
    void aClaimerRenewsAnAgeingPageWhileTheOthersGoOnClaimingFromIt() throws InterruptedException {
        groupOf(20);
        CountDownLatch renewing = new CountDownLatch(1);
        CountDownLatch renewed = new CountDownLatch(1);
        GameServerRepository secondReadWaits = Fleet.around(GameServerRepository.class, fleet.servers,
                (method, args, proceed) -> {
                    if (method.equals("someClaimCandidates") && reads.incrementAndGet() == 2) {
                        renewing.countDown();
                        assertThat(renewed.await(10, TimeUnit.SECONDS)).isTrue();
                    }
                    return proceed.call();
                });
        ClaimCandidateCache cache = new ClaimCandidateCache(secondReadWaits, new Groups(fleet.groups),
                new ClaimPolicy(1, new SplittableRandom(1)));
        Set<String> handedOut = java.util.concurrent.ConcurrentHashMap.newKeySet();
        handedOut.add(next(cache).gameServerId());
        fleet.clock.advance(ClaimCandidateCache.CANDIDATES_RENEWED_AFTER);

        Thread renewer = new Thread(() -> handedOut.add(next(cache).gameServerId()));
        renewer.start();
        assertThat(renewing.await(5, TimeUnit.SECONDS)).as("the ageing page is read anew").isTrue();
        for (int n = 0; n < 5; n++) {
            handedOut.add(next(cache).gameServerId()); // the renewal's read in flight: from the page, without waiting
        }
        renewed.countDown();
        renewer.join();
        fleet.clock.advance(ClaimCandidateCache.CANDIDATES_MAX_AGE.minus(ClaimCandidateCache.CANDIDATES_RENEWED_AFTER));
        handedOut.add(next(cache).gameServerId()); // the first read has aged out; the renewed page serves

        assertThat(reads).hasValue(2);
        assertThat(handedOut).hasSize(8);
    }

    @Test
    void aClaimPastItsBudgetFailsAsSafeToRetryBeforeItsNextCall() {
        groupOf(20);
        GameServerService slow = fleet.gameServers(Fleet.around(GameServerRepository.class, fleet.servers,
                (method, args, proceed) -> {
                    calls.add(method);
                    if (method.equals("tryClaim")) {
                        fleet.clock.advance(GameServerService.CLAIM_BUDGET.plusMillis(1)); // a write that took the whole budget...
                        return Optional.empty(); // ...and lost its race
                    }
                    return proceed.call();
                }));

        Throwable e = catchThrowable(() -> claim(slow));

        assertThat(e).isInstanceOf(GamefleetException.class).hasMessageContaining("safe to retry");
        assertThat(((GamefleetException) e).kind()).isEqualTo(ErrorKind.INTERNAL);
        assertThat(calls).containsExactly("someClaimCandidates", "tryClaim");
    }
}
