package io.gamefleet.agent;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A process's console log as the agent reads it: through the file the agent made, opened once when
 * it made it, never again by its path. The process owns its log folder and may put anything at that
 * path (a FIFO, on whose open the agent would block; a link to a file only root may read): what the
 * agent reads stays the file the process's standard output and error go to.
 */
final class ConsoleOutput implements AutoCloseable {
    /** How much of a log's end {@link #lastLines} reads, and how long a line it shows. */
    static final int TAIL_BYTES = 4096;
    static final int LINE_CHARS = 160;
    /** Where the ready line is looked for: at most this much new output per look. */
    static final int READ_BYTES = 1 << 20;

    private final FileChannel channel;

    private ConsoleOutput(FileChannel channel) {
        this.channel = channel;
    }

    /** The file the agent has just made (before the process exists, so it is the agent's). */
    static ConsoleOutput open(Path madeByTheAgent) throws IOException {
        return new ConsoleOutput(FileChannel.open(madeByTheAgent, StandardOpenOption.READ));
    }

    /** Up to {@link #READ_BYTES} from {@code offset} (fewer at the end); empty when there is none. */
    byte[] readFrom(long offset) throws IOException {
        long size = channel.size();
        if (size <= offset) {
            return new byte[0];
        }
        ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(size - offset, READ_BYTES));
        while (buffer.hasRemaining() && channel.read(buffer, offset + buffer.position()) > 0) {
            // until the buffer is full or the file ends
        }
        byte[] bytes = new byte[buffer.position()];
        buffer.flip().get(bytes);
        return bytes;
    }

    /**
     * The last {@code count} lines of output that are not blank, for a log line of the agent's: each
     * cut to {@link #LINE_CHARS} characters, control characters shown as {@code ?} (a process's
     * output writes no line of its own into the agent's log). None when it printed nothing.
     */
    List<String> lastLines(int count) {
        try {
            long size = channel.size();
            long from = Math.max(0, size - TAIL_BYTES);
            String text = new String(readFrom(from), StandardCharsets.UTF_8);
            if (from > 0 && text.indexOf('\n') >= 0) {
                text = text.substring(text.indexOf('\n') + 1); // the first line is cut: not shown
            }
            List<String> lines = new ArrayList<>();
            for (String line : text.split("\n")) {
                String shown = line.strip().codePoints().map(c -> Character.isISOControl(c) ? '?' : c)
                        .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
                if (!shown.isEmpty()) {
                    lines.add(shown.length() > LINE_CHARS ? shown.substring(0, LINE_CHARS) + "..." : shown);
                }
            }
            return List.copyOf(lines.subList(Math.max(0, lines.size() - count), lines.size()));
        } catch (IOException e) {
            return List.of();
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // a read-only channel: nothing was left to write
        }
    }
}
