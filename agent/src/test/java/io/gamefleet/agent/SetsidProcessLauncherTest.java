package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * What the launcher decides before and around a process, in-process: the command lines and
 * environments it starts game servers and its helpers with, which process at a recorded pid it adopts,
 * and what a group leader tells of itself. The processes themselves, setsid's session, setpriv's uid
 * and the signals, are {@link RealProcessesTest}'s, {@link AdoptionTest}'s and {@link IsolationTest}'s.
 */
class SetsidProcessLauncherTest {
    private static final long SELF = ProcessHandle.current().pid();
    /** Above any pid_max: no process has it. */
    private static final long NO_PROCESS = 1L << 40;

    private static final List<String> DROPPED_PRIVILEGES = List.of("--clear-groups", "--inh-caps=-all", "--ambient-caps=-all",
            "--bounding-set=-all", "--no-new-privs", "--", "env", "--");

    @Test
    void aServerOfItsOwnUidRunsWithThatUidAndGidNoGroupsNoCapabilitiesAndNoNewPrivileges() {
        assertThat(SetsidProcessLauncher.asUser(61003)).startsWith("setpriv", "--reuid=61003", "--regid=61003")
                .endsWith(DROPPED_PRIVILEGES.toArray(String[]::new)).hasSize(3 + DROPPED_PRIVILEGES.size());
        // As the agent's user: the same uid, without the capabilities the agent's unit hands on.
        assertThat(SetsidProcessLauncher.asUser(ServerUsers.AGENT_USER))
                .containsExactly("setpriv", "--inh-caps=-all", "--ambient-caps=-all", "--");
    }

    @Test
    void aGameServerStartsInItsOwnSessionAsItsUidWithTheSpecsEnvironmentAloneItsOutputAppendedToItsLog() {
        Path folder = Path.of("/srv/gamefleet/servers/gs-0123456789abcdef");
        Path console = folder.resolve("logs").resolve(GameServerLaunch.CONSOLE_LOG);
        Map<String, String> environment = Map.of("PATH", "/usr/bin:/bin", "GSDK_CONFIG_FILE", "/srv/gsdkConfig.json");
        ProcessBuilder builder = SetsidProcessLauncher.builder(new ProcessLauncher.LaunchSpec(
                List.of("/opt/game/server", "--port", "7000"), environment, folder, console, 61000));

        assertThat(builder.command()).startsWith("setsid", "setpriv", "--reuid=61000", "--regid=61000")
                .endsWith("env", "--", "/opt/game/server", "--port", "7000");
        assertThat(builder.environment()).as("nothing of the agent's own environment").isEqualTo(environment);
        assertThat(builder.directory()).isEqualTo(folder.toFile());
        assertThat(builder.redirectInput().file()).isEqualTo(new File("/dev/null"));
        assertThat(builder.redirectOutput()).isEqualTo(ProcessBuilder.Redirect.appendTo(console.toFile()));
        assertThat(builder.redirectErrorStream()).isTrue();
    }

    @Test
    void theHelpersRunWithTheAgentsPathAlone() {
        ProcessBuilder helper = new SetsidProcessLauncher("/usr/sbin:/usr/bin").helper(List.of("test", "-x", "/opt/game/server"));
        assertThat(helper.environment()).containsExactlyEntriesOf(Map.of("PATH", "/usr/sbin:/usr/bin"));
        assertThat(helper.redirectOutput()).isEqualTo(ProcessBuilder.Redirect.DISCARD);
    }

    @Test
    void everyProcessOfASlotsUidIsKilledAsThatUidAndNeverAsRootOrTheAgent() {
        assertThat(SetsidProcessLauncher.killAllCommand(61001)).startsWith("setpriv", "--reuid=61001")
                .endsWith("env", "--", "kill", "-KILL", "--", "-1");
        // kill -1 as root or as the agent's own user would end every process it may signal.
        for (int uid : new int[] {0, ServerUsers.AGENT_USER}) {
            assertThatThrownBy(() -> SetsidProcessLauncher.killAllCommand(uid)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("killAll needs a game server's own uid, not " + uid);
        }
    }

    @Test
    void theProcessAtARecordedPidIsAdoptedOnlyAsTheLeaderOfItsSessionStartedWhenRecorded() {
        ProcessStat leader = new ProcessStat(4242, 4242, 4242, 777_777);
        Instant started = Instant.parse("2026-12-01T10:00:00Z");
        Optional<Instant> os = Optional.of(started);

        assertThat(SetsidProcessLauncher.isTheOneStarted(leader, os, 777_777L, started)).isTrue();
        assertThat(SetsidProcessLauncher.isTheOneStarted(leader, os, 777_778L, started)).as("a reused pid").isFalse();
        assertThat(SetsidProcessLauncher.isTheOneStarted(new ProcessStat(4242, 4242, 1, 777_777), os, 777_777L, started))
                .as("not a session's leader").isFalse();
        assertThat(SetsidProcessLauncher.isTheOneStarted(new ProcessStat(4242, 1, 4242, 777_777), os, 777_777L, started))
                .as("not its group's leader").isFalse();

        // A state file without clock ticks: the OS's start instant, within a second either way.
        assertThat(SetsidProcessLauncher.isTheOneStarted(leader, os, null, started.plusMillis(999))).isTrue();
        assertThat(SetsidProcessLauncher.isTheOneStarted(leader, os, null, started.minusMillis(999))).isTrue();
        assertThat(SetsidProcessLauncher.isTheOneStarted(leader, os, null, started.plusSeconds(1))).isFalse();
        assertThat(SetsidProcessLauncher.isTheOneStarted(leader, os, null, started.minusSeconds(2))).isFalse();
        assertThat(SetsidProcessLauncher.isTheOneStarted(leader, Optional.empty(), null, started)).as("no start the OS tells")
                .isFalse();
    }

    @Test
    void aProcessRunsAsAUidByItsRealUidAndAsTheAgentsUserWhateverItIs() throws Exception {
        int mine = (Integer) Files.getAttribute(Path.of("/proc", Long.toString(SELF)), "unix:uid");
        assertThat(SetsidProcessLauncher.runsAs(SELF, mine)).isTrue();
        assertThat(SetsidProcessLauncher.runsAs(SELF, mine + 1)).isFalse();
        assertThat(SetsidProcessLauncher.runsAs(SELF, ServerUsers.AGENT_USER)).isTrue();
        assertThat(SetsidProcessLauncher.runsAs(NO_PROCESS, 61000)).isFalse();
    }

    @Test
    void aProcessThatLeadsNoSessionIsNotAdoptedEvenWithItsOwnStartAndUser() {
        ProcessStat self = ProcessStat.of(SELF).orElseThrow();
        Assumptions.assumeFalse(self.leadsItsSession(), "this JVM leads its own session");
        SetsidProcessLauncher launcher = new SetsidProcessLauncher("/usr/bin:/bin");
        Instant started = ProcessHandle.current().info().startInstant().orElseThrow();
        assertThat(launcher.adopt(SELF, self.startTicks(), started, ServerUsers.AGENT_USER)).isEmpty();
        assertThat(launcher.adopt(NO_PROCESS, 1L, started, ServerUsers.AGENT_USER)).as("gone").isEmpty();
    }

    @Test
    void anAdoptedProcessIsAliveAsItsHandleSaysAndHasNoExitCode() {
        ProcessHandle self = ProcessHandle.current();
        GameProcess adopted = new SetsidProcessLauncher.GroupLeader(self, null, 777_777);
        assertThat(adopted.pid()).isEqualTo(SELF);
        assertThat(adopted.startTicks()).isEqualTo(777_777);
        assertThat(adopted.startInstant()).isEqualTo(self.info().startInstant().orElseThrow());
        assertThat(adopted.isAlive()).isTrue();
        assertThat(adopted.exitCode()).isEmpty();
    }

    @Test
    void aLaunchedProcessIsAliveUntilItHasEndedThenHasItsExitCode() {
        ChildState child = new ChildState();
        GameProcess launched = new SetsidProcessLauncher.GroupLeader(ProcessHandle.current(), child, 1);
        assertThat(launched.isAlive()).isTrue();
        assertThat(launched.exitCode()).isEmpty();
        child.exitCode = 3; // ended (and reaped): its group's leader is gone whatever its handle still says
        assertThat(launched.isAlive()).isFalse();
        assertThat(launched.exitCode()).hasValue(3);
    }

    /** A child process's own state as the JDK reports it, set by the test. */
    private static final class ChildState extends Process {
        Integer exitCode;

        @Override
        public boolean isAlive() {
            return exitCode == null;
        }

        @Override
        public int exitValue() {
            if (exitCode == null) {
                throw new IllegalThreadStateException("still running");
            }
            return exitCode;
        }

        @Override
        public int waitFor() {
            throw new UnsupportedOperationException();
        }

        @Override
        public OutputStream getOutputStream() {
            return OutputStream.nullOutputStream();
        }

        @Override
        public InputStream getInputStream() {
            return InputStream.nullInputStream();
        }

        @Override
        public InputStream getErrorStream() {
            return InputStream.nullInputStream();
        }

        @Override
        public void destroy() {
            throw new UnsupportedOperationException();
        }
    }
}
