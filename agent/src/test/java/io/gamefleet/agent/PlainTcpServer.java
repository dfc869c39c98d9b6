package io.gamefleet.agent;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** A game server with no SDK, for wrapper mode: after a delay it listens on its port, and exits when told "quit". */
public final class PlainTcpServer {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Thread.sleep(Long.parseLong(args[1]));
        try (ServerSocket server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
            System.out.println("listening on " + port);
            while (true) {
                try (Socket client = server.accept()) {
                    if (new String(client.getInputStream().readNBytes(4)).equals("quit")) {
                        System.out.println("quitting");
                        return;
                    }
                }
            }
        }
    }
}
