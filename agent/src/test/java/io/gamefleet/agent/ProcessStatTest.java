package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code /proc/<pid>/stat} and {@code status} read as the kernel writes them: fixture lines, and this JVM's own entries. */
class ProcessStatTest {
    private static final long SELF = ProcessHandle.current().pid();
    /** Above any pid_max: no process has it. */
    private static final long NO_PROCESS = 1L << 40;

    /** Fields 3 to 22 of proc(5), state to starttime: S, ppid 1, pgrp 4242, session 4242, ..., starttime 777777. */
    private static final String TO_START_TIME = "S 1 4242 4242 0 -1 4194560 120 0 0 0 3 1 0 0 20 0 1 0 777777";

    @Test
    void theFieldsAfterTheCommandsNameGiveItsGroupSessionAndStartEvenWithParenthesesAndSpacesInTheName() {
        String stat = "4242 (my (game) server) " + TO_START_TIME + " 10002432 250 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0\n";
        assertThat(ProcessStat.parse(4242, stat)).hasValue(new ProcessStat(4242, 4242, 4242, 777_777));
        // A name that fakes the fields after it is still only the name: the fields are those after its last ')'.
        assertThat(ProcessStat.parse(4242, "4242 (x) S 1 666 666 ) " + TO_START_TIME)).hasValue(new ProcessStat(4242, 4242, 4242, 777_777));
    }

    @Test
    void aZombieALineCutBeforeItsStartTimeOrOneWithoutANameIsNoProcess() {
        assertThat(ProcessStat.parse(4242, "4242 (server) " + TO_START_TIME.replaceFirst("^S", "Z"))).isEmpty();
        assertThat(ProcessStat.parse(4242, "4242 (server) " + TO_START_TIME)).as("up to starttime").isPresent();
        assertThat(ProcessStat.parse(4242, "4242 (server) " + TO_START_TIME.substring(0, TO_START_TIME.lastIndexOf(' '))))
                .isEmpty();
        assertThat(ProcessStat.parse(4242, "4242 server " + TO_START_TIME)).isEmpty();
    }

    @Test
    void aLeaderOfItsSessionIsTheLeaderOfItsGroupToo() {
        assertThat(new ProcessStat(4242, 4242, 4242, 1).leadsItsSession()).isTrue();
        assertThat(new ProcessStat(4242, 4242, 4000, 1).leadsItsSession()).as("its group's leader in another session").isFalse();
        assertThat(new ProcessStat(4242, 4000, 4242, 1).leadsItsSession()).as("in another group").isFalse();
    }

    @Test
    void aRunningProcessIsReadFromProcAndAGoneOneIsNot() throws Exception {
        ProcessStat self = ProcessStat.of(SELF).orElseThrow();
        assertThat(self.pid()).isEqualTo(SELF);
        assertThat(self.startTicks()).isPositive().as("its identity does not change").isEqualTo(ProcessStat.of(SELF).orElseThrow().startTicks());
        assertThat(ProcessStat.of(NO_PROCESS)).isEmpty();

        int owner = (Integer) Files.getAttribute(Path.of("/proc", Long.toString(SELF)), "unix:uid");
        assertThat(ProcessStat.realUid(SELF)).hasValue(owner);
        assertThat(ProcessStat.realUid(NO_PROCESS)).isEmpty();
    }
}
