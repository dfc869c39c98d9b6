package io.gamefleet.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The local profile's archive (config {@code archiveDirectory}): copies an ended process's log folder
 * to {@code <archive>/<group>/<instance>/<game server id>/} by {@link LogFolderCopy}'s rules (no link
 * followed, nothing read outside the folder, at most {@code archiveMaxBytes}), with
 * {@code agent-report.json} (how it ended, and what of its logs was cut or left out) beside its logs,
 * and removes the process's folder. {@link S3LogArchive} stages its uploads with it.
 */
final class FolderLogArchive implements LogArchive {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path root;
    private final long maxBytes;
    private final AgentLog log;

    FolderLogArchive(Path archiveDirectory, String groupName, String instanceId, long maxBytes, AgentLog log) {
        this.root = archiveDirectory.resolve(groupName).resolve(instanceId);
        this.maxBytes = maxBytes;
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

    /** Copies the logs and writes the report; false (logged) when the disk would not. */
    boolean stage(ServerRecord s) {
        Path target = folderOf(s.gameServerId);
        try {
            LogFolderCopy.Result logs = LogFolderCopy.copy(s.folder, s.logFolder().getFileName().toString(), target,
                    maxBytes);
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
            if (!logs.cut().isEmpty()) {
                report.set("cut", JSON.valueToTree(logs.cut()));
            }
            if (!logs.leftOut().isEmpty()) {
                report.set("leftOut", JSON.valueToTree(logs.leftOut()));
            }
            Files.writeString(target.resolve(REPORT), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
            if (!logs.cut().isEmpty() || !logs.leftOut().isEmpty()) {
                log.info(s.gameServerId + ": " + logs.cut().size() + " log files cut to the archive's cap, "
                        + logs.leftOut().size() + " left out (" + REPORT + " says which)");
            }
            LogFolderCopy.deleteTree(s.folder);
            return true;
        } catch (IOException | UncheckedIOException e) {
            // The server is still replaced: a full disk must not stop the fleet.
            log.warn(s.gameServerId + ": cannot archive the logs to " + target + ": " + e.getMessage());
            return false;
        }
    }
}
