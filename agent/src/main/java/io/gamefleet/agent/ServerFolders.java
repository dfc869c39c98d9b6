package io.gamefleet.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Who may reach what on disk (docs/agent.md, "What a game server process gets"). The work directory
 * (state file, lock, outbox, archive) is the agent's alone: 0700, its files 0600. The servers
 * directory is 0711: a process reaches its own folder by name and cannot list the others'. Each
 * process's folder is 0700 and its GSDK config file 0600, owned by the process's uid; the shared
 * content and certificate folders are readable by every process and writable by none.
 */
final class ServerFolders {
    static final Set<PosixFilePermission> AGENT_ONLY = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> AGENT_ONLY_FILE = PosixFilePermissions.fromString("rw-------");
    static final Set<PosixFilePermission> TRAVERSABLE = PosixFilePermissions.fromString("rwx--x--x");
    static final Set<PosixFilePermission> READABLE = PosixFilePermissions.fromString("rwxr-xr-x");
    /** A sidecar's game server folders: its container's user, which the agent does not know, writes its logs there. */
    static final Set<PosixFilePermission> ANY_USER = PosixFilePermissions.fromString("rwxrwxrwx");
    static final Set<PosixFilePermission> ANY_USER_FILE = PosixFilePermissions.fromString("rw-rw-rw-");
    static final Set<PosixFilePermission> READABLE_FILE = PosixFilePermissions.fromString("rw-r--r--");
    static final String SHARED = "shared";
    static final String CERTIFICATES = "certificates";
    /** The ids this agent gives its processes ({@code gs-} and 16 hex digits): nothing else names a folder. */
    private static final Pattern GAME_SERVER_ID = Pattern.compile("gs-[0-9a-f]{16}");
    /** Where an earlier version kept the processes' folders, inside the work directory (still adopted after an upgrade). */
    private static final String FORMER_SERVERS = "servers";

    private final Path workDirectory;
    private final Path serversDirectory;
    /**
     * The game server runs in another container of an ECS task (a sidecar): as a user the agent does
     * not know, so its folders are any user's. The task volume they are on is mounted by that task's
     * two containers alone.
     */
    private final boolean otherContainer;

    ServerFolders(Path workDirectory, Path serversDirectory) {
        this(workDirectory, serversDirectory, false);
    }

    ServerFolders(Path workDirectory, Path serversDirectory, boolean otherContainer) {
        this.workDirectory = workDirectory;
        this.serversDirectory = serversDirectory;
        this.otherContainer = otherContainer;
    }

    /** Creates both directories, or gives them the modes above (an existing folder included). */
    void prepare() throws IOException {
        Files.setPosixFilePermissions(Files.createDirectories(workDirectory), AGENT_ONLY);
        Files.setPosixFilePermissions(Files.createDirectories(serversDirectory), TRAVERSABLE);
        Files.setPosixFilePermissions(Files.createDirectories(shared()), READABLE);
        Files.setPosixFilePermissions(Files.createDirectories(certificates()), READABLE);
    }

    Path folderOf(String gameServerId) {
        return serversDirectory.resolve(gameServerId);
    }

    Path shared() {
        return serversDirectory.resolve(SHARED);
    }

    Path certificates() {
        return serversDirectory.resolve(CERTIFICATES);
    }

    /**
     * The process's folder, its log, dump and config folders and its console log, new (an existing
     * path is refused), made while the agent owns them and given to the process's uid last.
     */
    void create(ServerRecord s, Path consoleLog) throws IOException {
        List<Path> folders = List.of(s.folder, s.logFolder(), s.logFolder().resolve("_dumps"), configFolder(s));
        for (Path folder : folders) {
            Files.setPosixFilePermissions(Files.createDirectory(folder), otherContainer ? ANY_USER : AGENT_ONLY);
        }
        Files.setPosixFilePermissions(Files.createFile(consoleLog), otherContainer ? ANY_USER_FILE : AGENT_ONLY_FILE);
        s.console = ConsoleOutput.open(consoleLog); // before it is given to the process's uid
        giveTo(s.uid, consoleLog);
        for (int i = folders.size() - 1; i >= 0; i--) {
            giveTo(s.uid, folders.get(i));
        }
    }

    Path configFolder(ServerRecord s) {
        return s.folder.resolve("config");
    }

    /** A new file of the process's, 0600, its content written before it is given to the process's uid. */
    Path writeOwn(ServerRecord s, Path file, byte[] content) throws IOException {
        Files.setPosixFilePermissions(Files.createFile(file), AGENT_ONLY_FILE);
        Files.write(file, content, StandardOpenOption.TRUNCATE_EXISTING);
        giveTo(s.uid, file);
        return file;
    }

    /**
     * A sidecar's GSDK config file at its fixed path (an earlier one replaced): written beside it, then
     * moved over it at once, so the game server container never reads half of it; readable by its user.
     */
    Path writeForContainer(Path file, byte[] content) throws IOException {
        Path written = Files.createTempFile(file.getParent(), ".gsdk-", ".json");
        try {
            Files.write(written, content, StandardOpenOption.TRUNCATE_EXISTING);
            Files.setPosixFilePermissions(written, READABLE_FILE);
            return Files.move(written, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(written);
        }
    }

    private static void giveTo(int uid, Path path) throws IOException {
        if (uid != ServerUsers.AGENT_USER) {
            Files.setAttribute(path, "unix:gid", uid, LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(path, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
        }
    }

    /**
     * The folder of a process of the state file, if it is one of this agent's to adopt, archive or
     * remove: its id is one the agent gives, and its folder that id's folder in the servers directory
     * (or in the work directory's former {@code servers/}). Anything else, a crafted {@code ../../etc}
     * or an absolute path, is refused ({@link NotOurs}, which says why) and reaches nothing.
     */
    Path ownFolder(String gameServerId, String folder) throws NotOurs {
        if (gameServerId == null || !GAME_SERVER_ID.matcher(gameServerId).matches()) {
            throw new NotOurs("its game server id " + gameServerId + " is not one this agent gives (gs- and 16 hex digits)");
        }
        Path named = folder == null ? null : Path.of(folder).toAbsolutePath().normalize();
        for (Path ours : List.of(folderOf(gameServerId), workDirectory.resolve(FORMER_SERVERS).resolve(gameServerId))) {
            if (ours.toAbsolutePath().normalize().equals(named)) {
                return ours;
            }
        }
        throw new NotOurs("its folder " + folder + " is not " + folderOf(gameServerId));
    }

    static final class NotOurs extends Exception {
        NotOurs(String message) {
            super(message);
        }
    }
}
