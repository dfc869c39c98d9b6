package io.gamefleet.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The local profile's archive (config {@code archiveDirectory}): moves an ended process's log folder
 * to {@code <archive>/<group>/<instance>/<game server id>/}, with {@code agent-report.json} (how it
 * ended) beside its logs, and removes the rest of its folder. {@link S3LogArchive} stages its uploads
 * with it.
 */
final class FolderLogArchive implements LogArchive {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path root;
    private final AgentLog log;

    FolderLogArchive(Path archiveDirectory, String groupName, String instanceId, AgentLog log) {
        this.root = archiveDirectory.resolve(groupName).resolve(instanceId);
        this.log = log;
    }

    Path folderOf(String gameServerId) {
        return root.resolve(gameServerId);
    }

    @Override
    public void archive(ServerRecord s) {
        if (stage(s)) {
            log.info(s.gameServerId + ": logs archived to " + folderOf(s.gameServerId));
        }
    }

    /** Moves the logs and writes the report; false (logged) when the disk would not. */
    boolean stage(ServerRecord s) {
        Path target = folderOf(s.gameServerId);
        try {
            Files.createDirectories(target.getParent());
            if (Files.isDirectory(s.logFolder())) {
                move(s.logFolder(), target);
            } else {
                Files.createDirectories(target);
            }
            ObjectNode report = JSON.createObjectNode()
                    .put("gameServerId", s.gameServerId)
                    .put("startedAt", s.startedAt.toString())
                    .put("endedAt", String.valueOf(s.endedAt))
                    .put("stopReason", s.stopReason);
            if (s.state != null) { // none before the process's first heartbeat
                report.put("lastState", s.state.name());
            }
            if (s.exitCode != null) {
                report.put("exitCode", s.exitCode);
            }
            Files.writeString(target.resolve(REPORT), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
            deleteTree(s.folder);
            return true;
        } catch (IOException | UncheckedIOException e) {
            // The server is still replaced: a full disk must not stop the fleet.
            log.warn(s.gameServerId + ": cannot archive the logs to " + target + ": " + e.getMessage());
            return false;
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            copyTree(from, to);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(dir)));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, to.resolve(from.relativize(file)), StandardCopyOption.REPLACE_EXISTING);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    static void deleteTree(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return;
        }
        Files.walkFileTree(folder, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
