package io.gamefleet.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * One game server's log folder as one deflated zip, {@code agent-report.json} its first entry (what
 * {@code unzip -p} reads without the logs), and the report's fields as the S3 object's metadata: how a
 * server ended, seen with a HeadObject instead of a download.
 */
final class LogZip {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The report's fields that become {@code x-amz-meta-*} headers, by their metadata name. */
    private static final Map<String, String> METADATA = Map.of("exit-code", "exitCode", "last-state", "lastState",
            "stop-reason", "stopReason", "ended-at", "endedAt");

    private LogZip() {}

    /**
     * Zips {@code folder} to {@code zip} through a temporary file moved into place, so that an agent
     * stopped halfway leaves the folder and no zip (the folder is zipped again); returns the entries.
     */
    static int write(Path folder, Path zip) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(folder)) {
            // The staged folder is the agent's (LogFolderCopy); a link in an outbox an older agent left is not followed.
            files = walk.filter(f -> Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS))
                    .sorted(Comparator.comparing((Path f) -> !f.equals(folder.resolve(LogArchive.REPORT))).thenComparing(Path::toString))
                    .toList();
        }
        Path partial = zip.resolveSibling(zip.getFileName() + ".partial");
        try (OutputStream out = Files.newOutputStream(partial); ZipOutputStream entries = new ZipOutputStream(out)) {
            for (Path file : files) {
                ZipEntry entry = new ZipEntry(folder.relativize(file).toString().replace('\\', '/'));
                entry.setLastModifiedTime(Files.getLastModifiedTime(file));
                entries.putNextEntry(entry); // DEFLATED: ZipOutputStream's default method
                try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
                    in.transferTo(entries);
                }
                entries.closeEntry();
            }
        }
        Files.move(partial, zip, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return files.size();
    }

    /** The object metadata of a zip, from its report (a field the report lacks, as an unknown exit code, is left out). */
    static Map<String, String> metadata(Path zip) throws IOException {
        Map<String, String> metadata = new LinkedHashMap<>();
        try (ZipFile file = new ZipFile(zip.toFile())) {
            ZipEntry entry = file.getEntry(LogArchive.REPORT);
            if (entry == null) {
                return metadata;
            }
            JsonNode report;
            try (InputStream in = file.getInputStream(entry)) {
                report = JSON.readTree(in);
            }
            METADATA.forEach((name, field) -> {
                JsonNode value = report.get(field);
                if (value != null && !value.isNull()) {
                    // S3 sends metadata as HTTP headers: printable US-ASCII only.
                    metadata.put(name, value.asText().replaceAll("[^\\x20-\\x7E]", "?"));
                }
            });
        }
        return metadata;
    }
}
