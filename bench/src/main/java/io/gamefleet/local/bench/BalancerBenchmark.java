package io.gamefleet.local.bench;

import io.gamefleet.domain.Caller;
import io.gamefleet.domain.Compute.ComputeInstance;
import io.gamefleet.domain.GameServerService.Registration;
import io.gamefleet.domain.SpotBalancer.GroupReport;
import io.gamefleet.local.LocalProfile;
import java.util.List;
import java.util.Optional;

/**
 * One balancer run over one group of {@code servers} game servers on {@code instances}
 * instances, against the local profile's DynamoDB (dynoxide): a quiet run (nothing changes), then
 * a run in which one of three instance types stops being viable and its instances drain, then
 * the run after. Prints DynamoDB calls and wall time of each. Run:
 * {@code java -cp bench/target/gamefleet-bench.jar io.gamefleet.local.bench.BalancerBenchmark [servers] [instances]}.
 */
public final class BalancerBenchmark {
    private BalancerBenchmark() {}

    public static void main(String[] args) throws Exception {
        int servers = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int instanceCount = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        Benchmarks.DynamoDbCalls dynamoCalls = new Benchmarks.DynamoDbCalls();
        try (LocalProfile profile = Benchmarks.start(dynamoCalls)) {
            String group = "bench";
            Benchmarks.createActive(profile, group, instanceCount, instanceCount * 2,
                    List.of("c5.large", "m5.large", "c4.large"));
            List<ComputeInstance> instances = profile.fleet().instancesOf(group);
            long started = System.nanoTime();
            for (int i = 0; i < servers; i++) {
                String instance = instances.get(i % instances.size()).instanceId();
                profile.services().gameServers().register(new Registration(group, "bench-" + i, instance,
                        Optional.of("127.0.0.1:" + (7000 + i % 1000)), Optional.empty()), Caller.UNBOUND);
            }
            System.out.printf("registered %d game servers on %d instances in %.1f s%n", servers, instances.size(),
                    (System.nanoTime() - started) / 1e9);

            run(profile, dynamoCalls, "quiet run (nothing changes)");
            // A quarter of the c4.large instances get Spot interruption warnings: above the 0.2 threshold.
            List<ComputeInstance> c4 = instances.stream().filter(i -> i.instanceType().equals("c4.large")).toList();
            c4.subList(0, (c4.size() + 3) / 4).forEach(i -> profile.fleet().interrupt(i.instanceId()));
            run(profile, dynamoCalls, "c4.large not viable (the other c4.large instances drain)");
            run(profile, dynamoCalls, "the run after (replacements launched; interrupted instances not yet replaced)");
        }
    }

    private static void run(LocalProfile profile, Benchmarks.DynamoDbCalls dynamoCalls, String what) {
        dynamoCalls.reset();
        long started = System.nanoTime();
        GroupReport report = profile.services().balancer().runAll().get(0);
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("%-70s %7d DynamoDB calls %7.2f s  drained %d, terminated %d%n", what, dynamoCalls.get(),
                seconds, report.drained().size(), report.terminated().size());
    }
}
