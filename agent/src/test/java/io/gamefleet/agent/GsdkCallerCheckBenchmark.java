package io.gamefleet.agent;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the per-server caller check costs: one lookup of a client socket's owner in /proc/net/tcp and
 * tcp6 (with the machine's sockets, then with 1,000 more loopback connections open), and a GSDK
 * heartbeat over the real endpoint with and without the check, on one keep-alive connection (as the
 * GSDKs beat) and on a new connection each time. The session's uid is this JVM's, so the real lookup
 * answers yes. Prints figures; asserts nothing.
 *
 * <pre>mvn -q -pl agent -am test-compile exec:java -Dexec.mainClass=io.gamefleet.agent.GsdkCallerCheckBenchmark -Dexec.classpathScope=test [-Dexec.args="5000"]</pre>
 */
public final class GsdkCallerCheckBenchmark {
    private static final String BEAT = "{\"CurrentGameState\":\"StandingBy\",\"CurrentGameHealth\":\"Healthy\"}";

    private static final int ROUNDS = 5;

    private GsdkCallerCheckBenchmark() {}

    private static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int uid = (int) Privileges.ofThisProcess().uid();
        Path root = Files.createTempDirectory("gamefleet-caller-check-");
        try {
            System.out.printf("sockets in /proc/net/tcp + tcp6: %d%n", sockets());
            lookups(n);
            List<Socket> idle = idleConnections(1000);
            System.out.printf("with 1,000 more loopback connections open (%d sockets):%n", sockets());
            lookups(n);
            idle.forEach(GsdkCallerCheckBenchmark::close);
            // Both endpoints at once, measured in turn over rounds (the median printed): a loaded machine's drift
            // falls on both alike.
            int[] ports = new int[2];
            String[] paths = new String[2];
            List<GsdkEndpoint> endpoints = new ArrayList<>();
            for (int checked = 0; checked < 2; checked++) {
                AgentFixture agent = new AgentFixture(root.resolve(checked == 1 ? "per-server" : "agent"), "{\"processes\": 1}", false,
                        checked == 1 ? ServerUsers.perServer(uid, 1) : ServerUsers.agent());
                agent.tick();
                agent.reply(agent.server(0), GameState.StandingBy);
                GsdkEndpoint endpoint = new GsdkEndpoint(agent.supervisor.sessions(), 0, SocketOwners.PROC_NET);
                endpoints.add(endpoint);
                ports[checked] = endpoint.start();
                paths[checked] = "/v1/sessionHosts/" + agent.server(0).sessionHostId;
                keepAlive(ports[checked], paths[checked], n / 5); // warm-up
                newConnections(ports[checked], paths[checked], n / 10);
            }
            double[][] keepAlive = new double[2][ROUNDS];
            double[][] fresh = new double[2][ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                for (int checked = 0; checked < 2; checked++) {
                    keepAlive[checked][round] = keepAlive(ports[checked], paths[checked], n);
                    fresh[checked][round] = newConnections(ports[checked], paths[checked], n / 5);
                }
            }
            for (int checked = 0; checked < 2; checked++) {
                String mode = checked == 1 ? "per-server (checked)" : "agent (no check)";
                System.out.printf("%-22s one keep-alive connection: %6.1f µs per heartbeat (median of %d rounds)%n", mode,
                        median(keepAlive[checked]), ROUNDS);
                System.out.printf("%-22s a new connection each:     %6.1f µs per heartbeat%n", mode, median(fresh[checked]));
            }
            for (GsdkEndpoint endpoint : endpoints) {
                endpoint.stop();
            }
        } finally {
            LogFolderCopy.deleteTree(root);
        }
    }

    private static void lookups(int n) throws IOException {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
                Socket client = new Socket("127.0.0.1", server.getLocalPort());
                Socket accepted = server.accept()) {
            InetSocketAddress from = new InetSocketAddress(client.getLocalAddress(), client.getLocalPort());
            InetSocketAddress to = (InetSocketAddress) accepted.getLocalSocketAddress();
            for (int i = 0; i < n / 5; i++) {
                SocketOwners.PROC_NET.uidOf(from, to);
            }
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                if (SocketOwners.PROC_NET.uidOf(from, to).isEmpty()) {
                    throw new IllegalStateException("the client socket is not in the tables");
                }
            }
            System.out.printf("  one owner lookup (its connection's first GSDK call): %.1f µs%n", (System.nanoTime() - start) / 1e3 / n);
        }
    }

    private static double keepAlive(int port, String path, int n) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest beat = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method("PATCH", HttpRequest.BodyPublishers.ofString(BEAT)).build();
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            if (http.send(beat, HttpResponse.BodyHandlers.discarding()).statusCode() != 200) {
                throw new IllegalStateException("a heartbeat was refused");
            }
        }
        return (System.nanoTime() - start) / 1e3 / n;
    }

    private static double newConnections(int port, String path, int n) throws IOException {
        byte[] request = ("PATCH " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
                + "Content-Length: " + BEAT.length() + "\r\n\r\n" + BEAT).getBytes(StandardCharsets.US_ASCII);
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                OutputStream out = s.getOutputStream();
                out.write(request);
                out.flush();
                InputStream in = s.getInputStream();
                ByteArrayOutputStream answer = new ByteArrayOutputStream();
                in.transferTo(answer);
                if (!answer.toString(StandardCharsets.US_ASCII).startsWith("HTTP/1.1 200")) {
                    throw new IllegalStateException("a heartbeat was refused: " + answer);
                }
            }
        }
        return (System.nanoTime() - start) / 1e3 / n;
    }

    private static List<Socket> idleConnections(int count) throws IOException {
        List<Socket> sockets = new ArrayList<>();
        try (ServerSocket server = new ServerSocket(0, count, InetAddress.getByName("127.0.0.1"))) {
            for (int i = 0; i < count; i++) {
                sockets.add(new Socket("127.0.0.1", server.getLocalPort()));
                sockets.add(server.accept());
            }
        }
        return sockets;
    }

    private static long sockets() throws IOException {
        long lines = 0;
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            try (var l = Files.lines(Path.of(table))) {
                lines += l.count() - 1;
            }
        }
        return lines;
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing
        }
    }
}
