package io.gamefleet.domain;

import io.gamefleet.domain.GameServerRepository.ClaimCandidates;
import io.gamefleet.domain.GameServerRepository.ClaimCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A container's claim candidates per group and instance status, read from the claim index and
 * handed out once each, in the order {@link ClaimPolicy} gives them. No lock is held across a
 * read: claimers that need fresh candidates while a read is in flight share that read (so none
 * waits for more than one DynamoDB call of another claim), a claimer that finds few left tops
 * them up, and one that finds them ageing reads them anew, while the others go on claiming.
 */
final class ClaimCandidateCache {
    /** Candidates read per claim-index query. */
    static final int CANDIDATES_PER_QUERY = 200;
    /**
     * How long a container claims from the candidates it read before it reads the index again
     * (it reads sooner when they run out). A candidate taken meanwhile by another container costs
     * one refused conditional write, never a wrong claim. The group's gate comes with the
     * candidates, so this is also the longest a claim may still succeed after the group stopped
     * being ACTIVE, on top of the index's own propagation ({@link #CANDIDATES_RENEWED_AFTER} once
     * a page is renewed).
     */
    static final Duration CANDIDATES_MAX_AGE = Duration.ofMillis(500);
    /**
     * The age at which one claimer reads a page anew while the others go on claiming from it:
     * where claims come often, the page is renewed before it ages out, and no claim waits for a
     * read another began (each expiry made every claim that arrived during the read wait for it).
     */
    static final Duration CANDIDATES_RENEWED_AFTER = CANDIDATES_MAX_AGE.multipliedBy(3).dividedBy(4);
    /**
     * Claim-index reads per instance status and claim: when every candidate read was taken by
     * other claimers, the index is read again, fresh (taken servers have left it).
     */
    static final int MAX_QUERIES_PER_STATUS = 3;

    private final GameServerRepository servers;
    private final Groups groups;
    private final ClaimPolicy claimPolicy;
    private final Map<String, CandidatePage> pages = new ConcurrentHashMap<>();
    /** The read in flight per group and status, which claimers that need fresh candidates share. */
    private final Map<String, CompletableFuture<CandidatePage>> reading = new ConcurrentHashMap<>();
    /**
     * Candidates this container is trying right now: a fresh read must not hand them out again.
     * Keyed by group and id ({@link #key}), as are the claims below: ids are unique only within a group.
     */
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    /** Servers this container claimed lately, which the index may still show for a moment. */
    private final Map<String, Instant> claimedLately = new ConcurrentHashMap<>();
    /** The same claims in the order they were made, so that forgetting the old ones reads only those. */
    private final Queue<ClaimedAt> claimedInOrder = new ConcurrentLinkedQueue<>();
    /**
     * Per group, its claim strategy as the last read with its gates showed it (the ACTIVE bucket's
     * reads carry them): the order of what this container reads next, the DRAINING bucket's too.
     */
    private final Map<String, ClaimStrategy> strategies = new ConcurrentHashMap<>();

    private record ClaimedAt(String key, Instant at) {}

    private static String key(GameServer server) {
        return server.gameServerGroupName() + "/" + server.gameServerId();
    }

    ClaimCandidateCache(GameServerRepository servers, Groups groups, ClaimPolicy claimPolicy) {
        this.servers = servers;
        this.groups = groups;
        this.claimPolicy = claimPolicy;
    }

    /** Reads of the index one claim made for one instance status. */
    static final class Reads {
        private int made;
    }

    /**
     * The next candidate of the group's servers of the status for this claim, marked as being
     * tried ({@link #tried}); empty when the index has none, or none left after
     * {@link #MAX_QUERIES_PER_STATUS} reads by this claim. Throws when a read shows the group is
     * not ACTIVE (for the ACTIVE bucket, whose reads carry the gate).
     */
    Optional<GameServer> next(String group, InstanceStatus status, ClaimCondition condition, Reads reads) {
        String key = group + "/" + status;
        while (true) {
            CandidatePage page = pages.get(key);
            if (!usable(page, condition.now())) {
                if (reads.made++ == MAX_QUERIES_PER_STATUS) {
                    return Optional.empty();
                }
                page = fresh(key, page, group, status, condition);
                if (page == null) {
                    return Optional.empty(); // no candidate
                }
            } else if (reads.made < MAX_QUERIES_PER_STATUS && ageing(page, condition.now())
                    && page.renewing().compareAndSet(false, true)) {
                reads.made++;
                page = renew(key, page, group, status, condition);
                if (page == null) {
                    return Optional.empty(); // no candidate
                }
            } else if (page.servers().size() < CANDIDATES_PER_QUERY / 3 && page.toppingUp().compareAndSet(false, true)) {
                boolean more = false;
                try {
                    more = topUp(page, group, status, condition);
                } finally {
                    page.toppingUp().set(!more); // the index had no more: the page runs out, then is read anew
                }
            }
            GameServer candidate = page.servers().poll();
            if (candidate != null) {
                inFlight.add(key(candidate));
                return Optional.of(candidate);
            } // taken by other claimers meanwhile: read again (within MAX_QUERIES_PER_STATUS)
        }
    }

    /** A candidate {@link #next} handed out was tried: claimed (at {@code now}) or not. */
    void tried(GameServer candidate, boolean claimed, Instant now) {
        if (claimed) {
            claimedLately.put(key(candidate), now);
            claimedInOrder.add(new ClaimedAt(key(candidate), now));
        }
        inFlight.remove(key(candidate));
    }

    /**
     * Candidates, in the order this container tries them, each handed out once, and when they
     * (and the gate) were last read.
     */
    private record CandidatePage(AtomicReference<Instant> readAt, Queue<GameServer> servers, AtomicBoolean toppingUp,
            AtomicBoolean renewing) {
        /** A read of half a page or less held all the index had: it is not topped up, only read anew. */
        CandidatePage(Instant readAt, List<GameServer> servers) {
            this(new AtomicReference<>(readAt), new ConcurrentLinkedQueue<>(servers),
                    new AtomicBoolean(servers.size() <= CANDIDATES_PER_QUERY / 2), new AtomicBoolean());
        }
    }

    private static boolean ageing(CandidatePage page, Instant now) {
        return !now.isBefore(page.readAt().get().plus(CANDIDATES_RENEWED_AFTER));
    }

    /**
     * The page read anew in place of {@code old}, whose candidates come back in the read if they
     * are still claimable; null when the index has none. Candidates handed out from the old page
     * meanwhile are being tried, and are left out of the new one.
     */
    private CandidatePage renew(String key, CandidatePage old, String group, InstanceStatus status,
            ClaimCondition condition) {
        Optional<List<GameServer>> read;
        try {
            read = read(group, status, condition, Set.of());
        } catch (RuntimeException e) {
            old.renewing().set(false); // the old page serves until it ages out; the next claimer tries again
            throw e;
        }
        if (read.isEmpty()) {
            pages.remove(key, old);
            old.servers().clear();
            return null;
        }
        CandidatePage renewed = new CandidatePage(condition.now(), inOrder(group, read.get()));
        pages.put(key, renewed);
        old.servers().clear();
        renewed.servers().removeIf(c -> inFlight.contains(key(c)));
        return renewed;
    }

    private static boolean usable(CandidatePage page, Instant now) {
        return page != null && !page.servers().isEmpty() && !now.isBefore(page.readAt().get())
                && now.isBefore(page.readAt().get().plus(CANDIDATES_MAX_AGE));
    }

    /**
     * Fresh candidates: the read in flight if there is one (shared), the page another claimer
     * read since this one looked, or a read of this claimer's own; null when the index has none.
     */
    private CandidatePage fresh(String key, CandidatePage seen, String group, InstanceStatus status,
            ClaimCondition condition) {
        CompletableFuture<CandidatePage> mine = new CompletableFuture<>();
        CompletableFuture<CandidatePage> shared = reading.putIfAbsent(key, mine);
        if (shared != null) {
            return join(shared);
        }
        try {
            CandidatePage current = pages.get(key);
            CandidatePage page = current != seen && usable(current, condition.now()) ? current
                    : read(group, status, condition, Set.of())
                            .map(read -> store(key, new CandidatePage(condition.now(), inOrder(group, read))))
                            .orElseGet(() -> {
                                pages.remove(key);
                                return null;
                            });
            mine.complete(page);
            return page;
        } catch (RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            reading.remove(key, mine);
        }
    }

    private CandidatePage store(String key, CandidatePage page) {
        if (pages.size() >= GameServerService.CACHED_GROUPS) {
            pages.clear();
        }
        if (!page.servers().isEmpty()) {
            pages.put(key, page);
        } // else all being tried or just claimed here: the claimer reads again (within MAX_QUERIES_PER_STATUS)
        return page;
    }

    private static CandidatePage join(CompletableFuture<CandidatePage> read) {
        try {
            return read.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /**
     * Adds the candidates read now that the page does not hold yet, and renews its gate reading;
     * false if the index had none to add.
     */
    private boolean topUp(CandidatePage page, String group, InstanceStatus status, ClaimCondition condition) {
        Set<String> held = new HashSet<>();
        page.servers().forEach(s -> held.add(s.gameServerId()));
        List<GameServer> more = read(group, status, condition, held).orElse(List.of());
        page.servers().addAll(inOrder(group, more));
        page.readAt().set(condition.now());
        return !more.isEmpty();
    }

    /**
     * One read of the claim index: the candidates this container is not trying, did not just
     * claim and does not hold, or empty when the index has none. The gate decides whether the
     * group table must be asked (which throws when the group is not ACTIVE).
     */
    private Optional<List<GameServer>> read(String group, InstanceStatus status, ClaimCondition condition,
            Set<String> held) {
        ClaimCandidates candidates = servers.someClaimCandidates(group, status, condition.now(),
                condition.healthCutoff(), CANDIDATES_PER_QUERY);
        if (status == InstanceStatus.ACTIVE && candidates.groupStatus().orElse(null) != GameServerGroupStatus.ACTIVE) {
            // The index's copy of the status is a hint; the group table decides.
            pages.remove(group + "/" + status);
            groups.requireActive(group, condition.now(), "ClaimGameServer");
        }
        candidates.claimStrategy().ifPresent(strategy -> learnStrategy(group, strategy));
        if (candidates.servers().isEmpty()) {
            return Optional.empty();
        }
        forgetClaimsBefore(condition.now().minus(CANDIDATES_MAX_AGE.multipliedBy(2)));
        return Optional.of(candidates.servers().stream()
                .filter(c -> !inFlight.contains(key(c)) && !claimedLately.containsKey(key(c))
                        && !held.contains(c.gameServerId()))
                .toList());
    }

    /** The candidates read, in the order the group's claim strategy gives them ({@link ClaimPolicy}). */
    private List<GameServer> inOrder(String group, List<GameServer> read) {
        return claimPolicy.tryOrder(read, strategies.getOrDefault(group, ClaimStrategy.FLEETIQ));
    }

    private void learnStrategy(String group, ClaimStrategy strategy) {
        if (strategies.size() >= GameServerService.CACHED_GROUPS && !strategies.containsKey(group)) {
            strategies.clear();
        }
        strategies.put(group, strategy);
    }

    /**
     * Forgets the claims made before {@code lately}, oldest first (a clock that went back leaves
     * later ones in the queue a while longer, never forgotten too early).
     */
    private void forgetClaimsBefore(Instant lately) {
        for (ClaimedAt oldest = claimedInOrder.peek(); oldest != null && oldest.at().isBefore(lately);
                oldest = claimedInOrder.peek()) {
            if (claimedInOrder.remove(oldest)) {
                claimedLately.remove(oldest.key(), oldest.at());
            }
        }
    }
}
