package io.gamefleet.agent;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
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

    /**
     * Reads the console log from where the last look stopped, whole lines only, through the agent's
     * own handle on it (a process adopted from a state file has none: its ready port alone counts).
     */
    private boolean printed(ServerRecord s) {
        if (s.console == null) {
            return false;
        }
        long offset = s.outputReadOffset;
        try {
            String text = new String(s.console.readFrom(offset), StandardCharsets.UTF_8);
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
