package io.gamefleet.local.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The benchmarks' temporary folders, removed when the JVM exits, after the figures or at Ctrl-C
 * alike, so that a benchmark leaves nothing behind ({@code -Dbench.keepTemp=true} keeps them, and
 * says where).
 */
final class TemporaryFolders {
    private static final List<Path> MADE = new CopyOnWriteArrayList<>();
    private static final boolean KEEP = Boolean.getBoolean("bench.keepTemp");

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(TemporaryFolders::removeAll, "bench-temporary-folders"));
    }

    private TemporaryFolders() {}

    static Path make(String prefix, FileAttribute<?>... attributes) throws IOException {
        Path folder = Files.createTempDirectory(prefix, attributes);
        MADE.add(folder);
        return folder;
    }

    private static void removeAll() {
        for (Path folder : MADE) {
            if (KEEP) {
                System.err.println("bench: kept " + folder);
                continue;
            }
            try (var paths = Files.walk(folder)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                System.err.println("bench: " + folder + " could not be removed: " + e.getMessage());
            }
        }
    }
}
