package io.gamefleet.agent;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Wrapper mode's readiness, on the real process: a TCP connection to its ready port on the loopback
 * address succeeds, or a new line of its console log matches the ready line.
 */
final class OutputReadiness implements ReadinessProbe {
    private static final int CONNECT_TIMEOUT_MS = 200;

    private final AgentConfig.Wrapper wrapper;
    private final GameServerLaunch launch;
    private final Pattern line;

    OutputReadiness(AgentConfig.Wrapper wrapper, GameServerLaunch launch) {
        this.wrapper = wrapper;
        this.launch = launch;
        this.line = wrapper.readyLine() == null ? null : Pattern.compile(wrapper.readyLine());
    }

    @Override
    public boolean ready(ServerRecord s) {
        return (wrapper.readyPort() != null && listens(launch.ports(s.slot).get(wrapper.readyPort())))
                || (line != null && printed(s));
    }

    private static boolean listens(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(GsdkEndpoint.LOOPBACK, port), CONNECT_TIMEOUT_MS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Reads the console log from where the last look stopped, whole lines only. */
    private boolean printed(ServerRecord s) {
        Path log = s.logFolder().resolve(GameServerLaunch.CONSOLE_LOG);
        long offset = s.outputReadOffset;
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            if (file.length() <= offset) {
                return false;
            }
            byte[] bytes = new byte[(int) Math.min(file.length() - offset, 1 << 20)];
            file.seek(offset);
            file.readFully(bytes);
            String text = new String(bytes, StandardCharsets.UTF_8);
            int end = text.lastIndexOf('\n');
            if (end < 0) {
                return false;
            }
            s.outputReadOffset = offset + text.substring(0, end + 1).getBytes(StandardCharsets.UTF_8).length;
            for (String l : text.substring(0, end).split("\n")) {
                if (line.matcher(l).find()) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return false;
        }
    }
}
