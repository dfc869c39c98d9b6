package io.gamefleet.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A TCP proxy on the loopback address between the agent and a stand-in endpoint, which the test
 * turns into the faults a network makes: it stops forwarding (both sockets stay open and what comes
 * is dropped: a half-open path), stops reading what the agent sends (its sends back up), or refuses
 * new connections.
 */
final class TcpProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int upstreamPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Object gate = new Object();
    private volatile boolean forwarding = true;
    private volatile boolean readingFromClient = true;
    private volatile boolean accepting = true;

    TcpProxy(int upstreamPort) throws IOException {
        this.upstreamPort = upstreamPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::accept, "proxy-accept");
        accept.setDaemon(true);
        accept.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** What comes from either side is read and dropped from now on, on every connection; none is closed. */
    void stopForwarding() {
        forwarding = false;
    }

    /** What the client sends is left unread from now on: its kernel's buffers fill, then its writes wait. */
    void stopReadingFromClient() {
        readingFromClient = false;
    }

    /** New connections are closed at once, or ({@code true}) forwarded again. */
    void accepting(boolean accept) {
        accepting = accept;
        if (accept) {
            forwarding = true;
            synchronized (gate) {
                readingFromClient = true;
                gate.notifyAll();
            }
        }
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                sockets.add(client);
                if (!accepting) {
                    client.close();
                    continue;
                }
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort);
                sockets.add(upstream);
                AtomicBoolean broken = new AtomicBoolean();
                pump(client, upstream, true, broken);
                pump(upstream, client, false, broken);
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    /** {@code broken}: the connection's path, once it stopped forwarding: it stays so (a new connection forwards again). */
    private void pump(Socket from, Socket to, boolean fromClient, AtomicBoolean broken) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                while (true) {
                    if (fromClient) {
                        synchronized (gate) {
                            while (!readingFromClient) {
                                gate.wait();
                            }
                        }
                    }
                    int n = in.read(buffer);
                    if (n < 0) {
                        return;
                    }
                    if (!forwarding) {
                        broken.set(true);
                    }
                    if (!broken.get()) {
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                }
            } catch (IOException | InterruptedException e) {
                // a socket closed
            }
        }, "proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
