package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which user the processes run as, from the configuration and the agent's own privileges (/proc/self/status). */
class ServerUsersTest {
    /** The systemd unit's AmbientCapabilities: SETUID SETGID CHOWN FOWNER DAC_OVERRIDE KILL. */
    private static final long UNIT = 1L << 7 | 1L << 6 | 1L << 0 | 1L << 3 | 1L << 1 | 1L << 5;
    private static final long UNIT_AND_SETPCAP = UNIT | 1L << 8;

    private final List<String> log = new ArrayList<>();

    private ServerUsers decide(String runAs, long uid, long capabilities) throws Agent.StartFailure {
        AgentConfig config = AgentConfigReader.parse("agent.json", "{\"gameServerGroupName\": \"g\", \"command\": \"/game\", "
                + "\"ports\": {\"game\": {\"from\": 7000, \"to\": 7001}}, \"processes\": 2"
                + (runAs == null ? "" : ", \"runAs\": \"" + runAs + "\"") + "}");
        return ServerUsers.decide(config, new Privileges(uid, capabilities), new AgentLog(java.time.Clock.fixed(Instant.EPOCH,
                java.time.ZoneOffset.UTC), log::add));
    }

    @Test
    void procSelfStatusGivesTheEffectiveUidAndCapabilities() {
        Privileges p = Privileges.parse("Name:\tjava\nUid:\t998\t999\t999\t999\nCapInh:\t0000000000000000\nCapEff:\t00000000000000eb\n");
        assertThat(p.uid()).isEqualTo(999);
        assertThat(p.canSwitchUsers()).isTrue();
        assertThat(p.has(Privileges.CAP_SETPCAP)).isFalse();
        assertThat(p.missingForPerServer()).isEmpty();
        assertThat(Privileges.parse("Uid:\t0\t0\t0\t0\nCapEff:\t000001ffffffffff\n").canSwitchUsers()).isTrue();
    }

    @Test
    void aStatusWhoseLinesStopShortGivesNoUidAndNoCapability() {
        Privileges p = Privileges.parse("Uid:\t998\nCapEff:\n");
        assertThat(p.uid()).as("the real uid alone: no effective one").isEqualTo(-1);
        assertThat(p.effectiveCapabilities()).isZero();
        assertThat(p.canSwitchUsers()).isFalse();
    }

    @Test
    void byDefaultEachProcessGetsItsOwnUidWhereTheAgentMaySwitchUsers() throws Exception {
        ServerUsers users = decide(null, 999, UNIT_AND_SETPCAP);
        assertThat(users.perServer()).isTrue();
        assertThat(users.uid(0)).isEqualTo(61000);
        assertThat(users.uid(1)).isEqualTo(61001);
        assertThat(log).singleElement().asString().contains("INFO each game server runs as its own user").contains("61000-61001");
    }

    @Test
    void withoutCapSetpcapTheBoundingSetStaysAndTheAgentSaysSo() throws Exception {
        assertThat(decide(null, 999, UNIT).perServer()).isTrue();
        assertThat(log).anyMatch(l -> l.contains("WARN without CAP_SETPCAP the game servers keep the agent's capability bounding set"));
    }

    @Test
    void anAgentThatMayNotSwitchUsersRunsThemAsItsOwnAndSaysOnceTheyAreNotIsolated() throws Exception {
        ServerUsers users = decide(null, 1000, 0);
        assertThat(users.perServer()).isFalse();
        assertThat(users.uid(0)).isEqualTo(ServerUsers.AGENT_USER);
        assertThat(log).singleElement().asString().contains("WARN the game servers run as the agent's own user (uid 1000")
                .contains("NOT isolated from each other");
        log.clear();
        assertThat(decide("agent", 0, -1L).perServer()).as("runAs agent, even as root").isFalse();
        assertThat(log).singleElement().asString().contains("runAs \"agent\"").contains("NOT isolated");
    }

    @Test
    void perServerWhereItCannotWorkIsAConfigurationErrorThatSaysWhatToDo() {
        assertThatThrownBy(() -> decide("per-server", 1000, 0)).isInstanceOf(Agent.StartFailure.class)
                .hasMessageContaining("runAs \"per-server\" needs an agent that may switch users (root, or CAP_SETUID and CAP_SETGID)")
                .hasMessageContaining("or set runAs \"agent\"");
        assertThatThrownBy(() -> decide(null, 999, 1L << 7 | 1L << 6)).isInstanceOf(Agent.StartFailure.class)
                .hasMessageContaining("this agent lacks CAP_CHOWN CAP_DAC_OVERRIDE CAP_KILL");
        assertThatThrownBy(() -> decide(null, 61001, UNIT)).isInstanceOf(Agent.StartFailure.class)
                .hasMessageContaining("the game servers' uids 61000-61001 (runAsUidBase) include the agent's own uid 61001");
    }

    @Test
    void theAgentsOwnUidIsRefusedAtEitherEndOfTheServersRangeAndTakenJustOutsideIt() throws Exception {
        assertThatThrownBy(() -> decide(null, 61000, UNIT)).isInstanceOf(Agent.StartFailure.class)
                .hasMessageContaining("include the agent's own uid 61000");
        assertThat(decide(null, 60999, UNIT).uid(0)).isEqualTo(61000);
        assertThat(decide(null, 61002, UNIT).uid(1)).isEqualTo(61001);
    }

    @Test
    void aMissingCapabilitySaysWhetherPerServerWasAskedForOrTheDefault() {
        assertThatThrownBy(() -> decide(null, 999, 1L << 7 | 1L << 6)).isInstanceOf(Agent.StartFailure.class)
                .hasMessageStartingWith("runAs \"per-server\" (the default: this agent may switch users) also needs CAP_CHOWN");
        assertThatThrownBy(() -> decide("per-server", 999, 1L << 7 | 1L << 6)).isInstanceOf(Agent.StartFailure.class)
                .hasMessageStartingWith("runAs \"per-server\" also needs CAP_CHOWN");
    }
}
