package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restarted agent adopts a pid of its state file only while it is still that process: the same
 * start time (clock ticks), the leader of its own session (as setsid made it) and of the uid it was
 * started as. A process that has the pid now is never signalled as if it were the game server.
 */
class AdoptionTest {
    @TempDir Path work;
    private final SetsidProcessLauncher launcher = new SetsidProcessLauncher(System.getenv("PATH"));
    private final List<GameProcess> started = new ArrayList<>();
    private final List<Process> others = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        started.forEach(GameProcess::kill);
        for (Process p : others) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private GameProcess sleeper(int uid) throws Exception {
        ChildJvm.traversable(work);
        Path output = Files.createFile(work.resolve("out-" + started.size()));
        Files.setPosixFilePermissions(output, ServerFolders.AGENT_ONLY_FILE);
        GameProcess p = launcher.launch(new ProcessLauncher.LaunchSpec(List.of("sleep", "600"), Map.of("PATH", System.getenv("PATH")),
                work, output, uid));
        started.add(p);
        // setsid and setpriv take a moment to run: until then it is neither its session's leader nor of its uid.
        ChildJvm.await("setsid and setpriv done", () -> ProcessStat.of(p.pid()).map(ProcessStat::leadsItsSession).orElse(false)
                && (uid == ServerUsers.AGENT_USER || ProcessStat.realUid(p.pid()).orElse(-1) == uid));
        return p;
    }

    @Test
    void theSameProcessIsAdoptedALaterOneWithItsPidIsNot() throws Exception {
        GameProcess p = sleeper(ServerUsers.AGENT_USER);
        long ticks = ProcessStat.of(p.pid()).orElseThrow().startTicks();
        assertThat(p.startTicks()).isEqualTo(ticks);
        assertThat(launcher.adopt(p.pid(), ticks, null, ServerUsers.AGENT_USER)).isPresent();
        assertThat(launcher.adopt(p.pid(), ticks + 1, null, ServerUsers.AGENT_USER)).as("started a tick later: another process").isEmpty();
        // A state file of an earlier version has the start instant only: it is compared within a second.
        assertThat(launcher.adopt(p.pid(), null, p.startInstant(), ServerUsers.AGENT_USER)).isPresent();
        assertThat(launcher.adopt(p.pid(), null, p.startInstant().minusSeconds(5), ServerUsers.AGENT_USER)).isEmpty();
    }

    @Test
    void aProcessThatDoesNotLeadItsOwnSessionIsNotAGameServerOfTheAgents() throws Exception {
        Process plain = new ProcessBuilder("sleep", "600").start(); // this JVM's session, not one of its own
        others.add(plain);
        ChildJvm.await("its start time", () -> ProcessStat.of(plain.pid()).isPresent());
        long ticks = ProcessStat.of(plain.pid()).orElseThrow().startTicks();
        assertThat(launcher.adopt(plain.pid(), ticks, null, ServerUsers.AGENT_USER)).isEmpty();
    }

    @Test
    void aProcessOfAnotherUidThanItWasStartedAsIsNotAdopted() throws Exception {
        Assumptions.assumeTrue(ChildJvm.canSwitchUsers(), "starts a process as another uid: needs root (or CAP_SETUID and CAP_SETGID)");
        GameProcess p = sleeper(61003);
        assertThat(launcher.adopt(p.pid(), p.startTicks(), null, 61003)).isPresent();
        assertThat(launcher.adopt(p.pid(), p.startTicks(), null, 61004)).isEmpty();
    }

    @Test
    void killingEveryProcessOfAUidIsRefusedForRootAndForTheAgentsUser() {
        assertThatThrownBy(() -> launcher.killAll(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> launcher.killAll(ServerUsers.AGENT_USER)).isInstanceOf(IllegalArgumentException.class);
    }
}
