package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A fleet that failed together does not retry together: 1,000 agents, each with its own random
 * jitter, on one moved clock, fail at the same instant (the API, or their game servers' crashes);
 * their retries spread over the whole backoff window, half to one and a half times the step.
 */
class BackoffTest {
    private static final int AGENTS = 1000;
    private static final Instant T = Instant.parse("2026-12-01T10:00:00Z");

    /**
     * The retries' offsets from T, in ms: inside the window (each at most {@code late} after its time),
     * over at least 90% of it, no tenth of it holding more than twice its share.
     */
    private static void spreadOverTheWindow(List<Long> offsets, long step, long late) {
        assertThat(offsets).hasSize(AGENTS).allMatch(o -> o >= step / 2 && o <= step * 3 / 2 + late);
        long spread = offsets.stream().mapToLong(Long::longValue).max().orElseThrow()
                - offsets.stream().mapToLong(Long::longValue).min().orElseThrow();
        assertThat(spread).as("the spread of 1,000 retries over the window of " + step + " ms").isGreaterThanOrEqualTo(step * 9 / 10);
        int[] tenths = new int[10];
        offsets.forEach(o -> tenths[(int) Math.min(9, (o - step / 2) * 10 / step)]++);
        for (int count : tenths) {
            assertThat(count).as("a tenth of the window").isLessThanOrEqualTo(AGENTS * 2 / 10);
        }
    }

    @Test
    void aThousandAgentsWhoseApiFailedTogetherRetryOverTheWholeWindowNotInStep() throws Exception {
        AgentConfig config = AgentConfigReader.parse("test", """
                {"gameServerGroupName": "g", "command": "/game", "ports": {"game": {"from": 7000, "to": 7000}},
                 "timings": {"apiRetryInitialSeconds": 4, "apiRetryMaxSeconds": 30}}""");
        MutableClock clock = new MutableClock(T);
        AgentLog log = new AgentLog(clock, line -> { });
        List<FakeFleetApi> apis = new ArrayList<>();
        List<FleetSync> agents = new ArrayList<>();
        List<ServerRecord> servers = new ArrayList<>();
        for (int i = 0; i < AGENTS; i++) {
            FakeFleetApi api = new FakeFleetApi();
            api.down = true;
            ProcessSlots slots = new ProcessSlots(config, null, null, ServerUsers.agent(), null, new ProcessEvents(), log, () -> 0,
                    () -> { });
            agents.add(new FleetSync(api, Runnable::run, new Object(), clock, config,
                    new Backoff(config.timings().apiRetryInitial(), config.timings().apiRetryMax(), Backoff.randomJitter()),
                    s -> "10.0.0.1:7000", log, slots, new ProcessEvents(), () -> { }));
            ServerRecord s = new ServerRecord(0, "gs-" + i, "0".repeat(32), Path.of("/nonexistent"), T);
            s.state = GameState.StandingBy;
            apis.add(api);
            servers.add(s);
        }
        for (int i = 0; i < AGENTS; i++) {
            agents.get(i).reconcile(servers.get(i), T); // the same failure, at the same instant
        }
        apis.forEach(api -> api.down = false);
        Long[] retriedAt = new Long[AGENTS];
        for (long ms = 0; ms <= 6000; ms += 10) {
            clock.advance(Duration.ofMillis(ms == 0 ? 0 : 10));
            for (int i = 0; i < AGENTS; i++) {
                if (retriedAt[i] == null) {
                    agents.get(i).reconcile(servers.get(i), clock.instant());
                    if (apis.get(i).registered.containsKey("gs-" + i)) {
                        retriedAt[i] = ms;
                    }
                }
            }
        }
        // Each a round (10 ms) late at most: the retry is due at T + delay, made at the first round after.
        spreadOverTheWindow(List.of(retriedAt), 4000, 10);
    }

    @Test
    void aThousandSlotsThatCrashedTogetherRestartOverTheWholeWindow() throws Exception {
        AgentConfig config = AgentConfigReader.parse("test", """
                {"gameServerGroupName": "g", "command": "/game", "ports": {"game": {"from": 7000, "to": 7000}},
                 "timings": {"crashBackoffInitialSeconds": 2}}""");
        List<Long> offsets = new ArrayList<>();
        for (int agent = 0; agent < AGENTS; agent++) {
            ProcessSlots slots = new ProcessSlots(config, new FakeProcesses(), null, ServerUsers.agent(),
                    new Backoff(config.timings().crashBackoffInitial(), config.timings().crashBackoffMax(), Backoff.randomJitter()),
                    new ProcessEvents(), new AgentLog(new MutableClock(T), line -> { }), () -> 0, () -> { });
            ProcessSlots.Slot slot = slots.all()[0];
            ServerRecord crashed = new ServerRecord(0, "gs-" + agent, "0".repeat(32), Path.of("/nonexistent"), T);
            crashed.exitCode = 139;
            slot.current = crashed;
            slots.ended(slot, crashed, T);
            offsets.add(Duration.between(T, slot.nextStartAt).toMillis());
        }
        spreadOverTheWindow(offsets, 2000, 0);
    }

    @Test
    void thePushChannelsReconnectsSpreadTooAndEveryStepDoublesUpToItsMax() {
        List<Long> offsets = new ArrayList<>();
        for (int agent = 0; agent < AGENTS; agent++) {
            offsets.add(new Backoff(PushConnection.RECONNECT_INITIAL, PushConnection.RECONNECT_MAX, Backoff.randomJitter())
                    .delay(1).toMillis());
        }
        spreadOverTheWindow(offsets, 1000, 0);
        Backoff exact = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(60), Backoff.NO_JITTER);
        assertThat(List.of(1, 2, 3, 6, 7, 30).stream().map(n -> exact.delay(n).toSeconds()))
                .containsExactly(1L, 2L, 4L, 32L, 60L, 60L);
    }
}
