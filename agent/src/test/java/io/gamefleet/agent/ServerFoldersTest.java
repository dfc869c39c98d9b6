package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who owns what on disk once a process's folders are made: every folder and file of a process of its
 * own uid is that uid's and gid's, 0700 and 0600; as the agent's user, they stay the agent's. What a
 * process of another uid can reach of them, tried by one, is {@link IsolationTest}'s.
 */
class ServerFoldersTest {
    private static final int UID = 61000;

    @TempDir Path work;

    private ServerFolders folders() throws Exception {
        ServerFolders folders = new ServerFolders(work.resolve("agent"), work.resolve("servers"));
        folders.prepare();
        return folders;
    }

    private static int owner(Path p, String attribute) throws Exception {
        return (Integer) Files.getAttribute(p, "unix:" + attribute, LinkOption.NOFOLLOW_LINKS);
    }

    @Test
    void aProcessOfItsOwnUidGetsItsFoldersConsoleLogAndConfigFileAsThatUidAndGid() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Privileges.ofThisProcess().has(Privileges.CAP_CHOWN),
                "gives files to another uid: needs root (or CAP_CHOWN)");
        ServerFolders folders = folders();
        ServerRecord s = new ServerRecord(0, "gs-0000000000000000", "session", folders.folderOf("gs-0000000000000000"),
                Instant.parse("2026-12-01T10:00:00Z"), UID);
        Path console = s.logFolder().resolve(GameServerLaunch.CONSOLE_LOG);

        folders.create(s, console);
        Path config = folders.writeOwn(s, folders.configFolder(s).resolve(GameServerLaunch.GSDK_CONFIG), "{}".getBytes());

        for (Path p : List.of(s.folder, s.logFolder(), s.logFolder().resolve("_dumps"), folders.configFolder(s))) {
            assertThat(owner(p, "uid")).as(p.toString()).isEqualTo(UID);
            assertThat(owner(p, "gid")).as(p.toString()).isEqualTo(UID);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(p))).isEqualTo("rwx------");
        }
        for (Path f : List.of(console, config)) {
            assertThat(owner(f, "uid")).as(f.toString()).isEqualTo(UID);
            assertThat(owner(f, "gid")).as(f.toString()).isEqualTo(UID);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------");
        }
        assertThat(config).hasContent("{}");
        assertThat(owner(folders.shared(), "uid")).as("shared: the agent's").isNotEqualTo(UID);
    }

    @Test
    void asTheAgentsUserEverythingStaysTheAgents() throws Exception {
        ServerFolders folders = folders();
        ServerRecord s = new ServerRecord(0, "gs-0000000000000000", "session", folders.folderOf("gs-0000000000000000"),
                Instant.parse("2026-12-01T10:00:00Z"));
        folders.create(s, s.logFolder().resolve(GameServerLaunch.CONSOLE_LOG));
        int agent = owner(work.resolve("agent"), "uid");
        assertThat(owner(s.folder, "uid")).isEqualTo(agent);
        assertThat(owner(s.logFolder().resolve(GameServerLaunch.CONSOLE_LOG), "uid")).isEqualTo(agent);
    }
}
