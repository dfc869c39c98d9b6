package io.gamefleet.local.bench;

import io.gamefleet.domain.ClaimPolicy;
import io.gamefleet.domain.ClaimStrategy;
import io.gamefleet.domain.FairShare;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GameServerRepository.ServerUpdate;
import io.gamefleet.domain.GameServerService;
import io.gamefleet.domain.GameServerService.Claim;
import io.gamefleet.domain.GroupService;
import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.InstanceLifetime;
import io.gamefleet.domain.InstanceLimits;
import io.gamefleet.domain.InstanceStatus;
import io.gamefleet.domain.PageTokens;
import io.gamefleet.domain.ServiceSettings;
import io.gamefleet.domain.UtilizationStatus;
import io.gamefleet.domain.fakes.InMemoryGameServerRepository;
import io.gamefleet.domain.fakes.InMemoryGroupRepository;
import io.gamefleet.domain.fakes.InMemoryInstanceRepository;
import io.gamefleet.domain.fakes.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * How many instances each claim strategy leaves empty for scale-in: a day of simulated churn on a
 * simulated fleet, on a clock it moves (a day takes seconds). A fixed fleet of {@code instances}
 * ACTIVE instances of {@code servers} game servers each, launched a minute apart; games arrive as
 * a Poisson process whose rate follows a daily curve (from a trough at 04:00 to a peak at 16:00,
 * the peak offering {@code peak} of the fleet), each played for a length drawn uniformly between
 * 10 and 40 minutes; a claimed server is set UTILIZED at once, and when its game ends it is
 * deregistered and its instance's next process registers a new server, as the agent does. Claims
 * go through the domain's claim path (GameServerService: ClaimCandidateCache, ClaimPolicy with
 * the deployment's spread of 8, the conditional write) over the in-memory repositories, with the
 * group's strategy set through GroupService's write and learned from the candidates' gate. Every
 * simulated minute it counts the instances with no claimed or UTILIZED server. Each strategy runs
 * on the same arrivals and lengths (one seed); the first day warms the fleet up, the second is
 * measured. Run:
 * {@code java -cp bench/target/gamefleet-bench.jar io.gamefleet.local.bench.ClaimStrategyBenchmark [instances] [servers] [peak] [seed]}
 * (40, 8, 0.85, 1).
 */
public final class ClaimStrategyBenchmark {
    private static final String GROUP = "arena";
    private static final Instant MIDNIGHT = Instant.parse("2100-01-01T00:00:00Z");
    private static final Duration DAY = Duration.ofDays(1);
    private static final Duration STEP = Duration.ofSeconds(1);
    private static final int MIN_GAME_MINUTES = 10;
    private static final int MAX_GAME_MINUTES = 40;
    /** The trough's rate as a share of the peak's. */
    private static final double TROUGH = 0.15;
    /** Services' spread: each claimer shuffles the first 8 candidates it tries. */
    private static final int SPREAD = 8;

    private ClaimStrategyBenchmark() {}

    /** The minute samples of the measured day, and the games refused for want of a server. */
    private record Result(int[] emptyPerMinute, int refused, int games) {}

    public static void main(String[] args) {
        int instances = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        int servers = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        double peak = args.length > 2 ? Double.parseDouble(args[2]) : 0.85;
        long seed = args.length > 3 ? Long.parseLong(args[3]) : 1;
        System.out.printf("%d instances x %d servers, peak %.0f%% of the fleet offered, games %d-%d min, seed %d;"
                + " the second simulated day, sampled every minute%n", instances, servers, 100 * peak,
                MIN_GAME_MINUTES, MAX_GAME_MINUTES, seed);
        System.out.printf("%-34s %12s %10s %10s %8s %10s%n", "", "empty mean", "empty p10", "empty p50", "games",
                "refused");
        Map<String, Result> results = new HashMap<>();
        for (ClaimStrategy strategy : ClaimStrategy.values()) {
            Result r = run(strategy, SPREAD, instances, servers, peak, seed);
            results.put(strategy.name(), r);
            row(strategy.name(), r);
        }
        Result unshuffled = run(ClaimStrategy.FLEETIQ, 1, instances, servers, peak, seed);
        row("FLEETIQ, no shuffle (spread 1)", unshuffled);
        double fleetIq = mean(results.get("FLEETIQ").emptyPerMinute());
        double packed = mean(results.get("PACKED").emptyPerMinute());
        System.out.printf("PACKED over FLEETIQ: %+.1f%% empty instances (mean), p10 %d vs %d%n",
                100 * (packed - fleetIq) / fleetIq, percentile(results.get("PACKED").emptyPerMinute(), 10),
                percentile(results.get("FLEETIQ").emptyPerMinute(), 10));
    }

    private static void row(String what, Result r) {
        System.out.printf("%-34s %12.2f %10d %10d %8d %10d%n", what, mean(r.emptyPerMinute()),
                percentile(r.emptyPerMinute(), 10), percentile(r.emptyPerMinute(), 50), r.games(), r.refused());
    }

    private record Game(Instant endsAt, String gameServerId, String instanceId) {}

    private static Result run(ClaimStrategy strategy, int spread, int instanceCount, int perInstance, double peak,
            long seed) {
        MutableClock clock = new MutableClock(MIDNIGHT);
        InMemoryGameServerRepository servers = new InMemoryGameServerRepository();
        InMemoryGroupRepository groups = new InMemoryGroupRepository(servers);
        // No server goes silent here (no heartbeats are simulated), and instances have no end.
        ServiceSettings settings = new ServiceSettings("us-east-1", "123456789012", Duration.ofSeconds(60),
                Duration.ofDays(7), Duration.ofHours(24), Duration.ofMinutes(10), "gamefleet-",
                new InstanceLimits(perInstance, false, new FairShare.Budget(1, 1), new FairShare.Budget(1, 1)),
                InstanceLifetime.UNLIMITED);
        groups.create(GameServerGroup.builder().name(GROUP).arn(settings.groupArn(GROUP))
                .status(GameServerGroupStatus.ACTIVE).minSize(instanceCount).maxSize(instanceCount)
                .creationTime(MIDNIGHT).lastUpdatedTime(MIDNIGHT).build());
        GroupService groupService = new GroupService(groups,
                new InMemoryInstanceRepository(), null, new PageTokens("bench"), settings, clock, null);
        groupService.setClaimStrategy(GROUP, strategy);
        GameServerService claims = new GameServerService(groups, servers, new InMemoryInstanceRepository(),
                () -> null, new ClaimPolicy(spread, new SplittableRandom(seed ^ 0x5DEECE66DL)), new PageTokens("bench"),
                settings, clock);

        Map<String, Instant> launched = new HashMap<>();
        int[] nextId = {0};
        for (int i = 0; i < instanceCount; i++) {
            String instance = "i-" + i;
            launched.put(instance, MIDNIGHT.minus(Duration.ofMinutes(instanceCount - i)));
            for (int s = 0; s < perInstance; s++) {
                register(servers, instance, launched.get(instance), nextId, clock.instant(), instanceCount, perInstance);
            }
        }
        Map<String, Integer> busyOnInstance = new HashMap<>();
        PriorityQueue<Game> playing = new PriorityQueue<>((a, b) -> a.endsAt().compareTo(b.endsAt()));
        SplittableRandom demand = new SplittableRandom(seed); // the same arrivals and lengths for every strategy
        double peakPerSecond = peak * instanceCount * perInstance / ((MIN_GAME_MINUTES + MAX_GAME_MINUTES) / 2.0 * 60);
        List<Integer> samples = new ArrayList<>();
        int refused = 0;
        int games = 0;
        Instant end = MIDNIGHT.plus(DAY.multipliedBy(2));
        Claim claim = new Claim(GROUP, Optional.empty(), Optional.empty(), Optional.empty());
        for (Instant now = MIDNIGHT; now.isBefore(end); now = clock.advance(STEP)) {
            while (!playing.isEmpty() && !playing.peek().endsAt().isAfter(now)) {
                Game over = playing.poll();
                servers.deregister(GROUP, over.gameServerId(), Optional.empty());
                busyOnInstance.merge(over.instanceId(), -1, Integer::sum);
                register(servers, over.instanceId(), launched.get(over.instanceId()), nextId, now, instanceCount,
                        perInstance);
            }
            int arrivals = poisson(demand, peakPerSecond * load(now));
            for (int a = 0; a < arrivals; a++) {
                int minutes = MIN_GAME_MINUTES + demand.nextInt(MAX_GAME_MINUTES - MIN_GAME_MINUTES + 1);
                boolean measured = !now.isBefore(MIDNIGHT.plus(DAY));
                try {
                    GameServer server = claims.claim(claim);
                    servers.update(GROUP, server.gameServerId(), Optional.empty(), new ServerUpdate(Optional.empty(),
                            Optional.of(UtilizationStatus.UTILIZED), Optional.empty()));
                    String instance = instanceOf(server.gameServerId());
                    busyOnInstance.merge(instance, 1, Integer::sum);
                    playing.add(new Game(now.plus(Duration.ofMinutes(minutes)), server.gameServerId(), instance));
                    games += measured ? 1 : 0;
                } catch (GamefleetException e) {
                    refused += measured ? 1 : 0; // out of capacity: the fleet is full
                }
            }
            if (!now.isBefore(MIDNIGHT.plus(DAY)) && now.getEpochSecond() % 60 == 0) {
                samples.add((int) launched.keySet().stream().filter(i -> busyOnInstance.getOrDefault(i, 0) == 0).count());
            }
        }
        return new Result(samples.stream().mapToInt(Integer::intValue).toArray(), refused, games);
    }

    /** The server ids name their instance: {@code <instance>/<n>}. */
    private static String instanceOf(String gameServerId) {
        return gameServerId.substring(0, gameServerId.indexOf('/'));
    }

    private static void register(InMemoryGameServerRepository servers, String instance, Instant launchedAt, int[] nextId,
            Instant now, int groupMaxSize, int perInstance) {
        servers.register(GameServer.builder().gameServerGroupName(GROUP).gameServerId(instance + "/" + nextId[0]++)
                .instanceId(instance).utilizationStatus(UtilizationStatus.AVAILABLE).registrationTime(now)
                .lastHealthCheckTime(now).instanceStatus(InstanceStatus.ACTIVE).instanceLaunchTime(launchedAt).build(),
                groupMaxSize, perInstance);
    }

    /** The offered load as a share of the peak's: a cosine from the trough at 04:00 to the peak at 16:00. */
    private static double load(Instant now) {
        double hours = Duration.between(MIDNIGHT, now).toSeconds() % DAY.toSeconds() / 3600.0;
        return TROUGH + (1 - TROUGH) * (1 - Math.cos(2 * Math.PI * (hours - 4) / 24)) / 2;
    }

    /** Knuth's: fine for the small means of one second's arrivals. */
    private static int poisson(SplittableRandom random, double mean) {
        double limit = Math.exp(-mean);
        double product = random.nextDouble();
        int n = 0;
        while (product > limit) {
            n++;
            product *= random.nextDouble();
        }
        return n;
    }

    private static double mean(int[] values) {
        return Arrays.stream(values).average().orElse(0);
    }

    private static int percentile(int[] values, int p) {
        int[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(p / 100.0 * sorted.length))];
    }
}
