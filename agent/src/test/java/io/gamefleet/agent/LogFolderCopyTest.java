package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A game server's log folder with the traps its process could lay, archived with real files: links
 * to the agent's environment and to a file of the agent's, a hard link, a FIFO, a socket, a log
 * folder that is itself a link, a file named as the agent's report, more than the cap, folders
 * deeper than the limit. Nothing of the agent's is copied, nothing blocks, and the report says what
 * was cut or left out.
 */
class LogFolderCopyTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** In a file of the agent's, outside every log folder: it must never reach an archive. */
    private static final String AGENT_SECRET = "agent-secret-0f1e2d3c";

    @TempDir
    Path work;
    private Path agentFile;
    private ServerRecord server;
    private final List<String> logLines = new ArrayList<>();

    @BeforeEach
    void aServerFolderBesideAFileOfTheAgents() throws IOException {
        agentFile = Files.writeString(work.resolve("agent-state.json"), "{\"sessionHostId\": \"" + AGENT_SECRET + "\"}");
        server = new ServerRecord(0, "gs-1", "session", work.resolve("servers").resolve("gs-1"),
                Instant.parse("2026-12-01T10:00:00Z"));
        Files.createDirectories(server.logFolder());
        Files.writeString(server.logFolder().resolve(GameServerLaunch.CONSOLE_LOG), "MATCH OVER\n");
        server.endedAt = Instant.parse("2026-12-01T10:30:00Z");
        server.stopReason = "exited";
    }

    private Path logs() {
        return server.logFolder();
    }

    private Path target() {
        return work.resolve("copy");
    }

    private LogFolderCopy.Result copy(long maxBytes) throws IOException {
        return LogFolderCopy.copy(server.folder, "logs", target(), maxBytes);
    }

    /** Every byte the copy holds, as text. */
    private String everythingIn(Path folder) throws IOException {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> walk = Files.walk(folder)) {
            for (Path f : walk.filter(Files::isRegularFile).toList()) {
                all.append(Files.readString(f, StandardCharsets.ISO_8859_1));
            }
        }
        return all.toString();
    }

    @Test
    void aLinkToTheAgentsEnvironmentOrToAFileOfTheAgentsIsRecordedAndNotFollowed() throws IOException {
        Files.createSymbolicLink(logs().resolve("environ"), Path.of("/proc/self/environ"));
        Files.createSymbolicLink(logs().resolve("state.json"), agentFile);
        Files.createDirectories(logs().resolve("sub"));
        Files.createSymbolicLink(logs().resolve("sub").resolve("up"), work);

        LogFolderCopy.Result result = copy(AgentConfig.DEFAULT_ARCHIVE_MAX_BYTES);

        assertThat(result.files()).isEqualTo(1);
        assertThat(result.leftOut()).containsExactly(
                new LogFolderCopy.LeftOut("environ", "a symbolic link to /proc/self/environ"),
                new LogFolderCopy.LeftOut("state.json", "a symbolic link to " + agentFile),
                new LogFolderCopy.LeftOut("sub/up", "a symbolic link to " + work));
        try (Stream<Path> copied = Files.walk(target())) {
            assertThat(copied.map(p -> target().relativize(p).toString())).containsExactlyInAnyOrder("",
                    GameServerLaunch.CONSOLE_LOG, "sub");
        }
        String archived = everythingIn(target());
        assertThat(archived).doesNotContain(AGENT_SECRET).doesNotContain("PATH=").isEqualTo("MATCH OVER\n");
    }

    @Test
    void aLogFolderThatIsALinkIsNotEntered() throws IOException {
        LogFolderCopy.deleteTree(logs());
        Files.createSymbolicLink(logs(), work);

        LogFolderCopy.Result result = copy(AgentConfig.DEFAULT_ARCHIVE_MAX_BYTES);

        assertThat(result.files()).isZero();
        assertThat(result.leftOut()).singleElement().satisfies(l -> assertThat(l.reason())
                .isEqualTo("the log folder is a symbolic link to " + work + ": nothing in it was read"));
        assertThat(target()).isEmptyDirectory();
    }

    @Test
    void aHardLinkToAnotherFileIsLeftOut() throws IOException {
        Files.createLink(logs().resolve("linked.txt"), agentFile);

        LogFolderCopy.Result result = copy(AgentConfig.DEFAULT_ARCHIVE_MAX_BYTES);

        assertThat(result.leftOut()).containsExactly(new LogFolderCopy.LeftOut("linked.txt",
                "a file with 2 hard links (it may be another's file, linked in)"));
        assertThat(everythingIn(target())).doesNotContain(AGENT_SECRET);
    }

    @Test
    void aFifoAndASocketAreLeftOutAndTheArchiveDoesNotBlockOnThem() throws Exception {
        Process mkfifo = new ProcessBuilder("mkfifo", logs().resolve("pipe").toString()).inheritIO().start();
        assertThat(mkfifo.waitFor()).isZero();
        try (ServerSocketChannel socket = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            socket.bind(UnixDomainSocketAddress.of(logs().resolve("sock")));
            FolderLogArchive archive = new FolderLogArchive(work.resolve("archive"), "g", "i-1",
                    AgentConfig.DEFAULT_ARCHIVE_MAX_BYTES, new AgentLog(Clock.systemUTC(), logLines::add));
            // Opening the FIFO to read it would wait for a writer that never comes: this bound is a hang's, not a speed's.
            boolean staged = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> archive.stage(server));
            assertThat(staged).isTrue();
        }
        JsonNode report = JSON.readTree(work.resolve("archive/g/i-1/gs-1").resolve(LogArchive.REPORT).toFile());
        assertThat(report.path("leftOut").toString()).contains("{\"path\":\"pipe\",\"reason\":\"a FIFO\"}",
                "{\"path\":\"sock\",\"reason\":\"a socket\"}");
        assertThat(work.resolve("archive/g/i-1/gs-1").resolve(GameServerLaunch.CONSOLE_LOG)).hasContent("MATCH OVER");
        assertThat(server.folder).doesNotExist();
        assertThat(logLines).anyMatch(l -> l.contains("gs-1: 0 log files cut to the archive's cap, 2 left out"));
    }

    @Test
    void theCopyIsCappedTheFileReachingTheCapKeepsItsEndAndTheRestIsLeftOut() throws IOException {
        Files.writeString(logs().resolve(GameServerLaunch.CONSOLE_LOG), "a".repeat(600));
        Files.writeString(logs().resolve("q.log"), "b".repeat(700) + "END OF Q");
        Files.writeString(logs().resolve("z.log"), "after the cap");

        LogFolderCopy.Result result = copy(1000);

        assertThat(result.bytes()).isEqualTo(1000);
        assertThat(result.cut()).containsExactly(new LogFolderCopy.Cut("q.log", 708, 400));
        assertThat(result.leftOut()).containsExactly(new LogFolderCopy.LeftOut("z.log",
                "the archive's cap of 1000 bytes (archiveMaxBytes) was reached"));
        assertThat(target().resolve(GameServerLaunch.CONSOLE_LOG)).hasContent("a".repeat(600));
        assertThat(Files.readString(target().resolve("q.log"))).hasSize(400).endsWith("END OF Q");
        assertThat(target().resolve("z.log")).doesNotExist();
    }

    @Test
    void theReportSaysWhatWasCutAndAFileNamedAsTheReportCannotReplaceIt() throws IOException {
        Files.writeString(logs().resolve(LogArchive.REPORT), "{\"stopReason\": \"forged\"}");
        Files.writeString(logs().resolve("big.log"), "x".repeat(5000));
        FolderLogArchive archive = new FolderLogArchive(work.resolve("archive"), "g", "i-1", 2000,
                new AgentLog(Clock.systemUTC(), logLines::add));

        assertThat(archive.stage(server)).isTrue();

        JsonNode report = JSON.readTree(work.resolve("archive/g/i-1/gs-1").resolve(LogArchive.REPORT).toFile());
        assertThat(report.path("stopReason").asText()).isEqualTo("exited");
        // By their paths: PF_ConsoleLogs.txt (11 bytes) first, then big.log, cut to what is left of the cap.
        assertThat(report.path("cut").toString()).isEqualTo("[{\"path\":\"big.log\",\"size\":5000,\"keptBytes\":1989}]");
        assertThat(report.path("leftOut").toString()).isEqualTo("[{\"path\":\"agent-report.json\",\"reason\":\"the name"
                + " of the agent's own report\"}]");
        assertThat(logLines).anyMatch(l -> l.contains("gs-1: 1 log files cut to the archive's cap, 1 left out"));
    }

    @Test
    void foldersDeeperThanTheLimitAreLeftOutAndRemoved() throws IOException {
        Path deep = logs();
        for (int i = 0; i < LogFolderCopy.MAX_DEPTH + 2; i++) {
            deep = deep.resolve("d");
        }
        Files.createDirectories(deep);
        Files.writeString(deep.resolve("deep.log"), "deep");

        LogFolderCopy.Result result = copy(AgentConfig.DEFAULT_ARCHIVE_MAX_BYTES);

        assertThat(result.leftOut()).singleElement().satisfies(l -> {
            assertThat(l.path()).isEqualTo("d/".repeat(LogFolderCopy.MAX_DEPTH));
            assertThat(l.reason()).isEqualTo("deeper than " + LogFolderCopy.MAX_DEPTH + " folders");
        });
        LogFolderCopy.deleteTree(server.folder);
        assertThat(server.folder).doesNotExist();
    }

    @Test
    void removingAServersFolderRemovesItsLinksAndNeverWhatTheyPointTo() throws IOException {
        Path outside = Files.createDirectories(work.resolve("outside"));
        Files.writeString(outside.resolve("keep.txt"), "keep");
        Files.createSymbolicLink(logs().resolve("dir-link"), outside);
        Files.createSymbolicLink(logs().resolve("file-link"), agentFile);

        LogFolderCopy.deleteTree(server.folder);

        assertThat(server.folder).doesNotExist();
        assertThat(outside.resolve("keep.txt")).hasContent("keep");
        assertThat(agentFile).exists();
    }

    @Test
    void aMissingLogOrServerFolderCopiesNothingAndAFileForAFolderIsSaidSo() throws IOException {
        LogFolderCopy.deleteTree(logs());
        assertThat(copy(100).files()).isZero();
        Files.writeString(logs(), "not a folder");
        assertThat(copy(100).leftOut()).singleElement().satisfies(l -> assertThat(l.reason())
                .isEqualTo("the log folder is a file: nothing in it was read"));
        assertThat(LogFolderCopy.copy(work.resolve("no-such-server"), "logs", target(), 100).files()).isZero();
    }

    @Test
    void aCleanFolderIsArchivedWholeAndSaidSoInOneLine() throws IOException {
        FolderLogArchive archive = new FolderLogArchive(work.resolve("archive"), "g", "i-1", AgentConfig.DEFAULT_ARCHIVE_MAX_BYTES,
                new AgentLog(Clock.systemUTC(), logLines::add));

        archive.archive(server);

        Path archived = work.resolve("archive/g/i-1/gs-1");
        assertThat(archived.resolve(GameServerLaunch.CONSOLE_LOG)).hasContent("MATCH OVER");
        assertThat(JSON.readTree(archived.resolve(LogArchive.REPORT).toFile()).has("cut")).isFalse();
        assertThat(server.folder).doesNotExist();
        assertThat(logLines).singleElement().asString().endsWith(" INFO gs-1: logs archived to " + archived);
    }

    @Test
    void anArchiveTheDiskRefusesKeepsTheServersFolderAndSaysWhy() throws IOException {
        Path notAFolder = Files.writeString(work.resolve("archive"), "a file where the archive should be");
        FolderLogArchive archive = new FolderLogArchive(notAFolder, "g", "i-1", AgentConfig.DEFAULT_ARCHIVE_MAX_BYTES,
                new AgentLog(Clock.systemUTC(), logLines::add));

        assertThat(archive.stage(server)).isFalse();
        archive.archive(server);

        assertThat(server.logFolder().resolve(GameServerLaunch.CONSOLE_LOG)).hasContent("MATCH OVER\n");
        assertThat(logLines).hasSize(2).allSatisfy(l -> assertThat(l).contains(" WARN gs-1: cannot archive the logs to "
                + notAFolder.resolve("g/i-1/gs-1") + ": "));
    }

    @Test
    void aFileCutPastTheFirstBufferKeepsExactlyTheCapsLastBytes() throws IOException {
        int cap = 100_000; // more than one 64 KiB read
        Files.writeString(logs().resolve(GameServerLaunch.CONSOLE_LOG), "x".repeat(3 * cap) + "CRASH");

        LogFolderCopy.Result result = copy(cap);

        assertThat(result.cut()).containsExactly(new LogFolderCopy.Cut(GameServerLaunch.CONSOLE_LOG, 3 * cap + 5, cap));
        assertThat(Files.readString(target().resolve(GameServerLaunch.CONSOLE_LOG))).hasSize(cap).endsWith("xCRASH");
    }

    @Test
    void atMostTenThousandFilesAreCopiedInTheOrderOfTheirPathsAndTheRestAreLeftOut() throws IOException {
        for (int i = 0; i <= LogFolderCopy.MAX_FILES; i++) {
            Files.createFile(logs().resolve(String.format("f%05d.log", i)));
        }

        LogFolderCopy.Result result = copy(AgentConfig.DEFAULT_ARCHIVE_MAX_BYTES);

        assertThat(result.files()).isEqualTo(LogFolderCopy.MAX_FILES);
        // PF_ConsoleLogs.txt sorts first: the last two f*.log files are left out.
        assertThat(result.leftOut()).extracting(LogFolderCopy.LeftOut::path)
                .containsExactly(String.format("f%05d.log", LogFolderCopy.MAX_FILES - 1), String.format("f%05d.log", LogFolderCopy.MAX_FILES));
        assertThat(result.leftOut()).extracting(LogFolderCopy.LeftOut::reason).containsOnly("the archive holds at most "
                + LogFolderCopy.MAX_FILES + " files");
    }

    @Test
    void aFolderDeeperThanTheRemovalsLimitIsLeftOnTheDiskSaidSoAndOneAtTheLimitIsRemoved() throws IOException {
        Path top = work.resolve("top");
        Files.createDirectories(nested(top, LogFolderCopy.DELETE_DEPTH));

        assertThatThrownBy(() -> LogFolderCopy.deleteTree(top)).isInstanceOf(IOException.class)
                .hasMessage("a folder deeper than " + LogFolderCopy.DELETE_DEPTH + " levels, left on the disk");
        assertThat(nested(top, LogFolderCopy.DELETE_DEPTH)).exists();
        // One level down, the same folders are within the limit.
        LogFolderCopy.deleteTree(nested(top, 1));
        assertThat(top).isEmptyDirectory();
    }

    /** {@code levels} folders, one in the other, below {@code top}. */
    private static Path nested(Path top, int levels) {
        Path p = top;
        for (int i = 0; i < levels; i++) {
            p = p.resolve("d");
        }
        return p;
    }
}
