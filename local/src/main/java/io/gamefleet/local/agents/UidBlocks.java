package io.gamefleet.local.agents;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Blocks of uids for the instances' processes, one block an instance in service, shared fairly
 * with every other profile on this machine: each uid of a block is held by a file lock
 * ({@code <locks>/<uid>.lock}) from the block's first use until {@link #close}, so that two
 * profiles (two {@code local/run}, a test run beside one, two regions' profiles in one JVM) never
 * hand out the same uid. An agent ends its processes by killing every process of their uids, so a
 * uid shared would let one profile's instance end another's game servers.
 *
 * <p>Blocks are handed out in turn, not the lowest free one, since an ended instance's agent may
 * still be stopping its processes when the next instance starts; a block comes round again only
 * once every other has been handed out.
 */
final class UidBlocks implements AutoCloseable {
    private final Path locks;
    private final int firstUid;
    private final int lastUid;
    private final int size;
    /** The blocks of instances in service. */
    private final BitSet inUse = new BitSet();
    /** Each uid this profile holds, by uid. */
    private final Map<Integer, Held> held = new HashMap<>();
    private int next;

    private record Held(FileChannel channel, FileLock lock) {}

    UidBlocks(Path locks, int firstUid, int lastUid, int size) {
        this.locks = locks;
        this.firstUid = firstUid;
        this.lastUid = lastUid;
        this.size = size;
    }

    /** The machine's: every profile on it looks for its uids' locks in the same folder. */
    static UidBlocks shared(int firstUid, int lastUid, int size) {
        return new UidBlocks(Path.of(System.getProperty("java.io.tmpdir"), "gamefleet-uids"), firstUid, lastUid, size);
    }

    /** The first uid of a block of {@code size} uids that no instance in service and no other profile has. */
    synchronized int acquire() {
        int blocks = (lastUid - firstUid + 1) / size;
        for (int tried = 0; tried < blocks; tried++) {
            int block = (next + tried) % blocks;
            if (!inUse.get(block) && hold(block)) {
                inUse.set(block);
                next = block + 1;
                return firstUid + block * size;
            }
        }
        throw new IllegalStateException("no uids left for another instance's " + size + " processes (" + firstUid
                + " to " + lastUid + ", those of other local profiles on this machine included)");
    }

    /** The block of {@code firstUidOfBlock} is no instance's any more; its locks stay this profile's. */
    synchronized void release(int firstUidOfBlock) {
        inUse.clear((firstUidOfBlock - firstUid) / size);
    }

    private boolean hold(int block) {
        int first = firstUid + block * size;
        Map<Integer, Held> taken = new HashMap<>();
        for (int uid = first; uid < first + size; uid++) {
            if (held.containsKey(uid)) {
                continue;
            }
            Held h = tryLock(uid);
            if (h == null) {
                taken.values().forEach(UidBlocks::unlock); // another profile holds part of it: none of it
                return false;
            }
            taken.put(uid, h);
        }
        held.putAll(taken);
        return true;
    }

    private Held tryLock(int uid) {
        try {
            if (!Files.isDirectory(locks)) {
                Files.createDirectories(locks);
                try {
                    Files.setPosixFilePermissions(locks, PosixFilePermissions.fromString("rwxrwxrwt"));
                } catch (IOException e) {
                    // made by another profile meanwhile: its permissions stand
                }
            }
            FileChannel channel = FileChannel.open(locks.resolve(uid + ".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            try {
                FileLock lock = channel.tryLock();
                if (lock == null) {
                    channel.close();
                    return null;
                }
                return new Held(channel, lock);
            } catch (OverlappingFileLockException e) {
                channel.close(); // another profile in this JVM holds it
                return null;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock uid " + uid + " in " + locks, e);
        }
    }

    private static void unlock(Held h) {
        try {
            h.lock().release();
            h.channel().close();
        } catch (IOException e) {
            // closing the channel releases the lock in any case
        }
    }

    /** Every uid goes back to the machine: once this profile's agents and their processes have ended. */
    @Override
    public synchronized void close() {
        held.values().forEach(UidBlocks::unlock);
        held.clear();
        inUse.clear();
    }
}
