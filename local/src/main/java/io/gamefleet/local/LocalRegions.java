package io.gamefleet.local;

import io.gamefleet.local.edge.Outage;
import io.gamefleet.local.edge.Principal;
import io.gamefleet.local.edge.Principals;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import software.amazon.awssdk.regions.Region;

/**
 * {@code local/run --regions}: one {@link LocalProfile} per region in this JVM, each with its own
 * dynoxide, Step Functions sidecar, edge and simulated fleet, peered as the stages of a deployment
 * in several regions are. Each region's functions that call peers get {@code GAMEFLEET_PEERS}
 * naming the others' regions and edge URLs, and sign their calls with one MATCHMAKER principal
 * minted for the run, which every region's edge admits (in AWS, each calls a peer as a session of
 * the peer's MATCHMAKER role). Any region's edge takes a region of the run down and back
 * ({@code POST /_local/regions/{region}/outage}, {@code .../recover}).
 */
public final class LocalRegions implements AutoCloseable {
    private final Map<String, LocalProfile> profiles = new LinkedHashMap<>();
    private final Optional<Principal> matchmaker;

    private LocalRegions(Optional<Principal> matchmaker) {
        this.matchmaker = matchmaker;
    }

    /** A region that did not start: which, on which port (the others are stopped). */
    public static final class NotStarted extends IllegalStateException {
        private final String region;
        private final int port;

        NotStarted(String region, int port, RuntimeException cause) {
            super(cause.getMessage(), cause);
            this.region = region;
            this.port = port;
        }

        public String region() {
            return region;
        }

        public int port() {
            return port;
        }
    }

    /**
     * The regions named as {@code --regions} takes them ({@code us-east-1,eu-west-1}): at least
     * one, each a region the AWS SDK knows (not a global endpoint's pseudo-region), none twice; an
     * IllegalArgumentException saying what is wrong.
     */
    public static List<String> parse(String value) {
        List<String> regions = new ArrayList<>();
        for (String region : value.split(",", -1)) {
            String r = region.strip();
            boolean known = !r.isEmpty() && Region.regions().contains(Region.of(r)) && !Region.of(r).isGlobalRegion();
            if (!known) {
                throw new IllegalArgumentException("--regions takes AWS regions' names, separated by commas, such as"
                        + " us-east-1,eu-west-1; " + (r.isEmpty() ? "one is empty" : r + " is not an AWS region"));
            }
            if (regions.contains(r)) {
                throw new IllegalArgumentException("--regions names " + r + " twice");
            }
            regions.add(r);
        }
        return List.copyOf(regions);
    }

    /**
     * Starts one profile per region, each with {@code base} but for its region, its port (the
     * first region's {@code base.port()}, the next one's that port plus one, and so on; 0: each a free
     * port) and, with several regions, its own folder of {@code base.dataDir()} (the region's name).
     * Several regions cannot share a given DynamoDB or Step Functions endpoint: their tables and
     * state machines have the same names. A region that fails to start stops those started before.
     */
    public static LocalRegions start(LocalProfile.Options base, List<String> regions) {
        if (regions.isEmpty() || new LinkedHashSet<>(regions).size() != regions.size()) {
            throw new IllegalArgumentException("the regions must be one or more, none twice: " + regions);
        }
        boolean several = regions.size() > 1;
        if (several && (base.dynamoDbEndpoint().isPresent() || base.stepFunctionsEndpoint().isPresent())) {
            throw new IllegalArgumentException("several regions cannot share --dynamodb-endpoint or"
                    + " --stepfunctions-endpoint: each region's tables and state machines have the same names; each"
                    + " region runs its own emulators without them");
        }
        LocalRegions run = new LocalRegions(several ? Optional.of(Principals.peerMatchmaker()) : Optional.empty());
        try {
            // Every edge listens before any region serves: each one's peers are the others' edges. The
            // regions start side by side, as most of a start is waiting for an emulator to answer.
            Map<String, LocalProfile> bound = new ConcurrentHashMap<>();
            try {
                atOnce(regions, region -> {
                    int port = base.port() == 0 ? 0 : base.port() + regions.indexOf(region);
                    Optional<Path> dataDir = several ? base.dataDir().map(d -> d.resolve(region)) : base.dataDir();
                    try {
                        bound.put(region, LocalProfile.bind(base.forRegion(region, port, dataDir),
                                several && base.log().logsRequests() ? region + " " : ""));
                    } catch (RuntimeException e) {
                        throw new NotStarted(region, port, e);
                    }
                });
            } finally { // those that started, to be stopped if another did not
                regions.stream().filter(bound::containsKey).forEach(r -> run.profiles.put(r, bound.get(r)));
            }
            Map<String, Outage> outages = new LinkedHashMap<>();
            run.profiles.forEach((region, profile) -> outages.put(region, profile.edge().outage()));
            Map<String, Outage> everyOutage = Collections.unmodifiableMap(outages);
            atOnce(regions, region -> {
                LocalProfile profile = run.profiles.get(region);
                List<LocalProfile.Peer> peers = run.profiles.values().stream().filter(p -> p != profile)
                        .map(p -> new LocalProfile.Peer(p.region(), p.endpoint())).toList();
                try {
                    profile.serve(new LocalProfile.Run(peers, run.matchmaker, everyOutage));
                } catch (RuntimeException e) {
                    throw new NotStarted(region, profile.endpoint().getPort(), e);
                }
            });
            return run;
        } catch (RuntimeException | Error e) {
            run.close();
            throw e;
        }
    }

    /** Runs {@code step} for each region, each on a thread of its own; once every one ended, throws the first failure. */
    private static void atOnce(List<String> regions, Consumer<String> step) {
        ExecutorService threads = Executors.newFixedThreadPool(regions.size(), r -> {
            Thread t = new Thread(r, "local-regions-start");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> steps = regions.stream().<Future<?>>map(r -> threads.submit(() -> step.accept(r))).toList();
            RuntimeException first = null;
            for (Future<?> f : steps) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    if (first == null) {
                        first = e.getCause() instanceof RuntimeException r ? r
                                : new IllegalStateException(e.getCause().getMessage(), e.getCause());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    first = first != null ? first : new IllegalStateException("interrupted while the regions started");
                }
            }
            if (first != null) {
                throw first;
            }
        } finally {
            threads.shutdown();
        }
    }

    /** The profiles, in the order of their regions. */
    public List<LocalProfile> profiles() {
        return List.copyOf(profiles.values());
    }

    /** The profile of {@code region}; an IllegalArgumentException if the run has none. */
    public LocalProfile profile(String region) {
        LocalProfile profile = profiles.get(region);
        if (profile == null) {
            throw new IllegalArgumentException("no region " + region + " in this run: " + profiles.keySet());
        }
        return profile;
    }

    /** The MATCHMAKER principal the regions call each other as; none with one region. */
    public Optional<Principal> matchmaker() {
        return matchmaker;
    }

    /** Stops every region, the last one first. */
    @Override
    public void close() {
        List<LocalProfile> started = new ArrayList<>(profiles.values());
        for (int i = started.size() - 1; i >= 0; i--) {
            started.get(i).close();
        }
        profiles.clear();
    }
}
