package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.domain.fakes.MutableClock;
import io.gamefleet.local.demo.DemoGame;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code local/run --demo}: its game servers and matchmaker, driven by moving the profile's clock. */
class DemoGameTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension()
            .localOnly("the demo game runs in the profile's process, on its simulated fleet and clock");

    private final List<String> log = new ArrayList<>();

    @Test
    void gameServersRegisterGetClaimedPlayAndStartAgain() {
        MutableClock clock = LOCAL.clock();
        LocalProfile profile = LOCAL.profile();
        DemoGame demo = DemoGame.calling(profile.endpoint(), LocalProfileExtension.ADMIN, profile.fleet(), clock,
                new Random(7), log::add);
        GamefleetClient api = LOCAL.admin();

        // The group is created and activated (the workflows run in real time); then the first tick
        // that finds it ACTIVE starts four game servers per instance and makes the first claim.
        demo.tick();
        assertThat(api.awaitGroup(DemoGame.GROUP, Set.of("ACTIVE", "ERROR"), GamefleetClient.WORKFLOW).get("Status")
                .asText()).as("%s", log).isEqualTo("ACTIVE");
        demo.tick();
        demo.tick();
        List<JsonNode> servers = servers(api);
        assertThat(servers).hasSize(DemoGame.MIN_SIZE * DemoGame.SLOTS_PER_INSTANCE);
        assertThat(servers).allSatisfy(s -> assertThat(s.get("GameServerId").asText())
                .matches("demo-" + s.get("InstanceId").asText() + "-[1-4]"));
        assertThat(utilized(servers)).hasSize(1);
        assertThat(utilized(servers).get(0).get("GameServerData").asText()).isEqualTo("match-1");

        // Ten minutes in steps of ten seconds, with the balancer once a minute as on local/run.
        for (int step = 1; step <= 60; step++) {
            clock.advance(Duration.ofSeconds(10));
            profile.fleet().tick();
            if (step % 6 == 0) {
                profile.runSchedule("RunBalancer");
            }
            demo.tick();
            demo.tick(); // a server that deregistered at the previous step starts again at once
        }

        assertThat(log).as("the demo's own report").noneMatch(line -> line.contains("could not")
                || line.contains("refused") || line.contains("failed") || line.contains("stops"));
        assertThat(log).anyMatch(line -> line.matches("match-1 ended: game server demo-i-[0-9a-f]+-[1-4] deregistered.*"));
        assertThat(demo.matchesStarted()).isGreaterThan(8);
        assertThat(log).filteredOn(line -> line.contains(") is in service: game servers demo-i-"))
                .hasSizeGreaterThan(DemoGame.MIN_SIZE);

        servers = servers(api);
        Instant now = clock.instant();
        BigDecimal stale = BigDecimal.valueOf(now.minus(DemoGame.HEARTBEAT).minusSeconds(10).toEpochMilli()).movePointLeft(3);
        assertThat(servers).allSatisfy(s -> assertThat(s.get("LastHealthCheckTime").decimalValue())
                .as("%s reports its health", s.get("GameServerId")).isGreaterThanOrEqualTo(stale));
        assertThat(utilized(servers)).isNotEmpty().allSatisfy(s -> assertThat(s.get("GameServerData").asText())
                .matches("match-[0-9]+"));
        // The matches filled the group past its 70% target, so target tracking launched more instances.
        int instances = api.describeInstances(DemoGame.GROUP, "").ok().body().get("GameServerInstances").size();
        assertThat(instances).as("%s", log).isGreaterThan(DemoGame.MIN_SIZE).isLessThanOrEqualTo(DemoGame.MAX_SIZE);
        assertThat(servers.size()).isLessThanOrEqualTo(instances * DemoGame.SLOTS_PER_INSTANCE);
    }

    private static List<JsonNode> servers(GamefleetClient api) {
        return api.listAll(GamefleetClient.groupPath(DemoGame.GROUP) + "/game-servers", "GameServers", 100);
    }

    private static List<JsonNode> utilized(List<JsonNode> servers) {
        return servers.stream().filter(s -> s.get("UtilizationStatus").asText().equals("UTILIZED")).toList();
    }
}
