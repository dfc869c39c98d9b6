package io.gamefleet.agent;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.time.Duration;
import java.util.Optional;

/**
 * PlayFab's QoS beacon on UDP (docs/agent.md, "The QoS beacon"): a client measures its latency to
 * the instance by the time a ping takes to come back. A ping is a datagram of {@value #MIN_PING} to
 * {@value #MAX_PING} bytes starting 0xFF 0xFF; the reply is the same datagram with those two bytes
 * 0x00. Anything else gets no answer. The internet is hostile: a reply is never longer than its
 * ping, and replies are rated per source address and in all ({@link QosReplyRate}), the rest dropped
 * silently, so the beacon reflects no more than it is sent and a flood costs it a bounded share.
 */
final class QosBeacon implements AutoCloseable {
    /** The port PlayFab's QoS clients ping (XPlatCppSdk's QoSSocket.h, CSharpSDK's RegionPinger.cs). */
    static final int DEFAULT_PORT = 3075;
    /** The C++ SDK's ping is the 2-byte header alone. */
    static final int MIN_PING = 2;
    /** The C++ SDK's buffer for a ping and its reply (BUFLEN); the C# SDK's ping is 10 bytes. */
    static final int MAX_PING = 512;
    private static final byte PING = (byte) 0xFF;
    private static final byte REPLY = 0x00;

    private final DatagramSocket socket;
    private final QosReplyRate rate;
    private final Thread thread;

    private QosBeacon(DatagramSocket socket, QosReplyRate rate, String name) {
        this.socket = socket;
        this.rate = rate;
        this.thread = new Thread(this::serve, name);
        this.thread.setDaemon(true);
    }

    /**
     * The beacon on {@code address}, answering on a thread of its own; empty, said once in the log,
     * when it cannot bind (the port in use, or below 1024 without the privilege): the agent goes on
     * without it.
     */
    static Optional<QosBeacon> open(InetSocketAddress address, QosReplyRate rate, AgentLog log) {
        DatagramSocket socket = null;
        try {
            socket = new DatagramSocket(null);
            socket.bind(address);
        } catch (IOException e) {
            if (socket != null) {
                socket.close();
            }
            log.warn("no QoS beacon: cannot listen on UDP " + address.getAddress().getHostAddress() + ":" + address.getPort()
                    + " (" + e.getMessage() + "); free that port, or set qosPort (0 turns the beacon off). The agent goes on without it");
            return Optional.empty();
        }
        QosBeacon beacon = new QosBeacon(socket, rate, "qos-beacon-" + socket.getLocalPort());
        beacon.thread.start();
        log.info("QoS beacon on UDP " + address.getAddress().getHostAddress() + ":" + socket.getLocalPort());
        return Optional.of(beacon);
    }

    int port() {
        return socket.getLocalPort();
    }

    private void serve() {
        // One byte more than a ping may have: a longer datagram is seen as such, not cut to size.
        byte[] buffer = new byte[MAX_PING + 1];
        DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
        while (!socket.isClosed()) {
            try {
                packet.setLength(buffer.length);
                socket.receive(packet);
                if (isPing(packet) && rate.allows(packet.getAddress())) {
                    buffer[0] = REPLY;
                    buffer[1] = REPLY;
                    socket.send(packet); // to its sender, its length the ping's
                }
            } catch (SocketException e) {
                if (socket.isClosed()) {
                    return; // close()
                }
            } catch (IOException | RuntimeException e) {
                // one datagram's fault (a send refused by the network): the next is served
            }
        }
    }

    private static boolean isPing(DatagramPacket packet) {
        byte[] data = packet.getData();
        return packet.getLength() >= MIN_PING && packet.getLength() <= MAX_PING && data[0] == PING && data[1] == PING;
    }

    /** Stops answering and frees the port; the thread ends with the socket. */
    @Override
    public void close() throws InterruptedException {
        socket.close();
        thread.join(Duration.ofSeconds(5).toMillis());
    }
}
