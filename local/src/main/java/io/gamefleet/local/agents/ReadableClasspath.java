package io.gamefleet.local.agents;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A Java classpath that game servers of their own uids can load (the local profile run as root): each
 * entry that not every user may read, a jar in the local Maven repository or a checkout under root's
 * 0700 home, is linked (or copied) into a folder anyone may read. As a user, the classpath as it is.
 */
public final class ReadableClasspath {
    private static final Set<PosixFilePermission> READABLE_FOLDER = PosixFilePermissions.fromString("rwxr-xr-x");
    private static final Set<PosixFilePermission> READABLE_FILE = PosixFilePermissions.fromString("rw-r--r--");
    private static Path copies;

    private ReadableClasspath() {}

    public static synchronized String of(String classpath) {
        if (!InstanceAgents.runsAsRoot()) {
            return classpath;
        }
        List<String> entries = new ArrayList<>();
        for (String entry : classpath.split(File.pathSeparator)) {
            Path path = Path.of(entry).toAbsolutePath();
            entries.add(!Files.exists(path) || readableByAll(path) ? path.toString() : readableCopy(path).toString());
        }
        return String.join(File.pathSeparator, entries);
    }

    /** Whether a user who is neither its owner nor in its group may read it: every folder on its way searchable. */
    static boolean readableByAll(Path path) {
        try {
            Set<PosixFilePermission> own = Files.getPosixFilePermissions(path);
            if (!own.contains(PosixFilePermission.OTHERS_READ)
                    || (Files.isDirectory(path) && !own.contains(PosixFilePermission.OTHERS_EXECUTE))) {
                return false;
            }
            for (Path up = path.getParent(); up != null; up = up.getParent()) {
                if (!Files.getPosixFilePermissions(up).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                    return false;
                }
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A jar hard-linked where possible (the same file, readable by all), else copied; a folder copied whole. */
    private static Path readableCopy(Path entry) {
        try {
            if (copies == null) {
                copies = Files.setPosixFilePermissions(Files.createTempDirectory("gamefleet-classpath-"), READABLE_FOLDER);
                Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(copies)));
            }
            Path target = copies.resolve(Integer.toHexString(entry.hashCode()) + "-" + entry.getFileName());
            if (Files.exists(target)) {
                return target;
            }
            if (Files.isDirectory(entry)) {
                copyFolder(entry, target);
            } else {
                try {
                    Files.createLink(target, entry);
                } catch (IOException | UnsupportedOperationException e) {
                    Files.copy(entry, target);
                }
                Files.setPosixFilePermissions(target, READABLE_FILE);
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make " + entry + " readable to the game servers' uids", e);
        }
    }

    private static void copyFolder(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.setPosixFilePermissions(Files.createDirectories(to.resolve(from.relativize(dir).toString())), READABLE_FOLDER);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.setPosixFilePermissions(Files.copy(file, to.resolve(from.relativize(file).toString())), READABLE_FILE);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static void delete(Path root) {
        try (var paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // at exit: what is left is in the temporary folder
        }
    }
}
