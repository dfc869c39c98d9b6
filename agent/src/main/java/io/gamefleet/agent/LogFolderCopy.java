package io.gamefleet.agent;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A game server's log folder copied into a folder of the agent's. The folder is the process's own,
 * so nothing in it is trusted: every entry is looked at through a descriptor of the folder that holds
 * it ({@link SecureDirectoryStream}: {@code fstatat}, {@code openat}, {@code unlinkat}, never a path
 * that a link swapped in could redirect), and no link is followed:
 * <ul>
 * <li>a regular file with one link is copied;</li>
 * <li>a symbolic link is recorded with its target and not followed: a link to {@code /proc/self/environ}
 *     or to a file of the agent's copies nothing;</li>
 * <li>a regular file with other hard links (another's file linked in), a FIFO (opening it would block
 *     the agent), a socket or a device is left out;</li>
 * <li>at most {@code maxBytes} are copied, the files in the order of their paths: the file that
 *     reaches the cap keeps its last bytes (a log's end is where a crash is), the files after it are left
 *     out; so are files beyond {@value #MAX_FILES} and folders deeper than {@value #MAX_DEPTH}.</li>
 * </ul>
 * What was cut or left out is the {@link Result}'s, for the server's report. The read of a file
 * begins after its check: a process of the server's still running could swap the file for a FIFO in
 * between, so the agent ends every process of a server before it archives it.
 */
final class LogFolderCopy {
    static final int MAX_FILES = 10_000;
    static final int MAX_DEPTH = 32;
    private static final Set<java.nio.file.OpenOption> READ = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    /** How deep {@link #deleteTree} goes: a process's folder deeper than this is left on the disk, said so. */
    static final int DELETE_DEPTH = 1_000;
    private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;

    /** A file cut to the cap: its size, and how many of its last bytes were kept. */
    record Cut(String path, long size, long keptBytes) {}

    /** An entry that was not copied, and why. */
    record LeftOut(String path, String reason) {}

    /** What went into the copy, and what did not. */
    record Result(int files, long bytes, List<Cut> cut, List<LeftOut> leftOut) {}

    private final long maxBytes;
    private int files;
    private long bytes;
    private final List<Cut> cut = new ArrayList<>();
    private final List<LeftOut> leftOut = new ArrayList<>();

    private LogFolderCopy(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * Copies {@code folder/name} (the log folder, in the server's folder {@code folder}, which is the
     * agent's to name) to {@code target}, which is made; a log folder (or server folder) that is missing
     * copies nothing.
     */
    static Result copy(Path folder, String name, Path target, long maxBytes) throws IOException {
        LogFolderCopy copy = new LogFolderCopy(maxBytes);
        Files.createDirectories(target);
        if (!Files.isDirectory(folder, NOFOLLOW)) {
            return copy.result();
        }
        try (SecureDirectoryStream<Path> parent = open(folder)) {
            Path logs = Path.of(name);
            BasicFileAttributes attributes;
            try {
                attributes = attributes(parent, logs);
            } catch (NoSuchFileException e) {
                return copy.result();
            }
            if (!attributes.isDirectory()) {
                copy.leftOut.add(new LeftOut(".", "the log folder is " + kind(folder.resolve(name), attributes)
                        + ": nothing in it was read"));
                return copy.result();
            }
            try (SecureDirectoryStream<Path> logFolder = parent.newDirectoryStream(logs, NOFOLLOW)) {
                copy.folder(logFolder, folder.resolve(name), "", target, 1);
            }
        }
        return copy.result();
    }

    private Result result() {
        return new Result(files, bytes, List.copyOf(cut), List.copyOf(leftOut));
    }

    /** {@code dir} (at {@code path}, named {@code relative} in the copy, "" at the top) into {@code target}. */
    private void folder(SecureDirectoryStream<Path> dir, Path path, String relative, Path target, int depth)
            throws IOException {
        for (Path name : names(dir)) {
            String entry = relative + name;
            BasicFileAttributes attributes;
            try {
                attributes = attributes(dir, name);
            } catch (NoSuchFileException e) {
                continue; // gone since the listing
            }
            if (attributes.isDirectory()) {
                if (depth >= MAX_DEPTH) {
                    leftOut.add(new LeftOut(entry + "/", "deeper than " + MAX_DEPTH + " folders"));
                    continue;
                }
                Path into = Files.createDirectories(target.resolve(name.toString()));
                try (SecureDirectoryStream<Path> child = dir.newDirectoryStream(name, NOFOLLOW)) {
                    folder(child, path.resolve(name), entry + "/", into, depth + 1);
                }
            } else if (!attributes.isRegularFile()) {
                leftOut.add(new LeftOut(entry, kind(path.resolve(name), attributes)));
            } else if (relative.isEmpty() && name.toString().equals(LogArchive.REPORT)) {
                leftOut.add(new LeftOut(entry, "the name of the agent's own report"));
            } else {
                file(dir, path.resolve(name), name, entry, attributes, target.resolve(name.toString()));
            }
        }
    }

    private void file(SecureDirectoryStream<Path> dir, Path path, Path name, String entry, BasicFileAttributes attributes,
            Path into) throws IOException {
        // The link count is no attribute of the descriptor's view: read by path, and kept only if that path is still
        // the file that was checked.
        Map<String, Object> unix = Files.readAttributes(path, "unix:nlink,fileKey", NOFOLLOW);
        if (!attributes.fileKey().equals(unix.get("fileKey"))) {
            leftOut.add(new LeftOut(entry, "it changed while it was archived"));
            return;
        }
        int links = (Integer) unix.get("nlink");
        if (links > 1) {
            leftOut.add(new LeftOut(entry, "a file with " + links + " hard links (it may be another's file, linked in)"));
            return;
        }
        if (files >= MAX_FILES) {
            leftOut.add(new LeftOut(entry, "the archive holds at most " + MAX_FILES + " files"));
            return;
        }
        long room = maxBytes - bytes;
        if (room <= 0) {
            leftOut.add(new LeftOut(entry, "the archive's cap of " + maxBytes + " bytes (archiveMaxBytes) was reached"));
            return;
        }
        long size = attributes.size();
        long keep = Math.min(size, room);
        long copied = 0;
        try (SeekableByteChannel in = dir.newByteChannel(name, READ);
                OutputStream out = Files.newOutputStream(into)) {
            in.position(size - keep);
            ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(64 * 1024, Math.max(1, keep)));
            var sink = Channels.newChannel(out);
            while (copied < keep) {
                buffer.clear().limit((int) Math.min(buffer.capacity(), keep - copied));
                int read = in.read(buffer);
                if (read < 0) {
                    break; // shorter than when it was checked
                }
                buffer.flip();
                while (buffer.hasRemaining()) {
                    sink.write(buffer);
                }
                copied += read;
            }
        }
        Files.setLastModifiedTime(into, attributes.lastModifiedTime());
        files++;
        bytes += copied;
        if (keep < size) {
            cut.add(new Cut(entry, size, copied));
        }
    }

    /** What a non-regular entry is, for the report. */
    private static String kind(Path path, BasicFileAttributes attributes) {
        if (attributes.isSymbolicLink()) {
            try {
                return "a symbolic link to " + Files.readSymbolicLink(path);
            } catch (IOException e) {
                return "a symbolic link";
            }
        }
        if (attributes.isRegularFile()) {
            return "a file";
        }
        try {
            int type = (Integer) Files.getAttribute(path, "unix:mode", NOFOLLOW) & 0170000;
            return switch (type) {
                case 0010000 -> "a FIFO";
                case 0140000 -> "a socket";
                case 0020000 -> "a character device";
                case 0060000 -> "a block device";
                default -> "not a regular file";
            };
        } catch (IOException | RuntimeException e) {
            return "not a regular file";
        }
    }

    /**
     * Removes {@code folder} (a path of the agent's) and everything in it, through descriptors: a link is
     * removed, never what it points to, and a folder swapped for a link while it is emptied stops the removal.
     */
    static void deleteTree(Path folder) throws IOException {
        if (!Files.exists(folder, NOFOLLOW)) {
            return;
        }
        if (Files.isDirectory(folder, NOFOLLOW)) {
            try (SecureDirectoryStream<Path> dir = open(folder)) {
                empty(dir, 1);
            }
        }
        Files.delete(folder);
    }

    private static void empty(SecureDirectoryStream<Path> dir, int depth) throws IOException {
        for (Path name : names(dir)) {
            BasicFileAttributes attributes;
            try {
                attributes = attributes(dir, name);
            } catch (NoSuchFileException e) {
                continue;
            }
            if (!attributes.isDirectory()) {
                dir.deleteFile(name);
                continue;
            }
            if (depth >= DELETE_DEPTH) {
                throw new IOException("a folder deeper than " + DELETE_DEPTH + " levels, left on the disk");
            }
            try (SecureDirectoryStream<Path> child = dir.newDirectoryStream(name, NOFOLLOW)) {
                empty(child, depth + 1);
            }
            dir.deleteDirectory(name);
        }
    }

    private static SecureDirectoryStream<Path> open(Path folder) throws IOException {
        DirectoryStream<Path> stream = Files.newDirectoryStream(folder);
        if (stream instanceof SecureDirectoryStream<Path> secure) {
            return secure;
        }
        stream.close();
        throw new IOException("this platform reads no folder through its descriptor (SecureDirectoryStream); the agent"
                + " runs on Linux");
    }

    private static BasicFileAttributes attributes(SecureDirectoryStream<Path> dir, Path name) throws IOException {
        return dir.getFileAttributeView(name, BasicFileAttributeView.class, NOFOLLOW).readAttributes();
    }

    /** The folder's entries, by name, sorted. */
    private static List<Path> names(SecureDirectoryStream<Path> dir) throws IOException {
        List<Path> names = new ArrayList<>();
        try {
            for (Path entry : dir) {
                names.add(entry.getFileName());
            }
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
        names.sort(java.util.Comparator.comparing(Path::toString));
        return names;
    }
}
