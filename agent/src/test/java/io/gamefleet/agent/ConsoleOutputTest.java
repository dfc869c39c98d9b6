package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A failed process's last lines, as the agent's log shows them: few, short, and no line of the process's own. */
class ConsoleOutputTest {
    @TempDir Path work;

    @Test
    void theLastLinesThatAreNotBlankEachCutWithControlCharactersShown() throws Exception {
        Path log = Files.createFile(work.resolve("PF_ConsoleLogs.txt"));
        try (ConsoleOutput console = ConsoleOutput.open(log)) {
            assertThat(console.lastLines(5)).isEmpty();
            Files.writeString(log, "starting\n\n/bin/sh: 1: /abs/MyServer: not found\r\n" + "x".repeat(500) + "\n"
                    + "fake\u001b[31m red\n  \n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

            assertThat(console.lastLines(3)).containsExactly("/bin/sh: 1: /abs/MyServer: not found",
                    "x".repeat(ConsoleOutput.LINE_CHARS) + "...", "fake?[31m red");
        }
    }

    @Test
    void onlyTheLogsEndIsReadAndItsFirstCutLineIsNotShown() throws Exception {
        Path log = Files.createFile(work.resolve("PF_ConsoleLogs.txt"));
        Files.writeString(log, "line\n".repeat(100_000) + "the reason\n");
        try (ConsoleOutput console = ConsoleOutput.open(log)) {
            assertThat(console.lastLines(2)).containsExactly("line", "the reason");
            assertThat(console.lastLines(10_000)).hasSizeLessThanOrEqualTo(ConsoleOutput.TAIL_BYTES / 5);
        }
    }
}
