package io.gamefleet.local.edge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The edge's HTTP layer alone (Jetty with the edge's limits), with short limits: deadlines,
 * 100-continue, the connection limit. Every HTTP/1.1 request carries the Host header RFC 9112
 * requires (Jetty refuses one without it).
 */
class HttpEdgeTest {
    private final ExecutorService workers = Executors.newFixedThreadPool(2);
    private HttpEdge server;

    @BeforeEach
    void start() throws IOException {
        // Echoes the method, path, query and body length.
        HttpEdge.Limits limits = new HttpEdge.Limits(1024, 100, Duration.ofMillis(1500), Duration.ofMillis(1000), 8);
        server = new HttpEdge(0, limits, null, new WholeRequests(limits, exchange -> workers.execute(() -> {
            try {
                exchange.respond(200, Map.of("Content-Type", "text/plain"), (exchange.method() + " " + exchange.path()
                        + " " + exchange.query() + " " + exchange.body().length).getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        })));
    }

    @AfterEach
    void stop() {
        server.close();
        workers.shutdownNow();
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", server.port());
        socket.setSoTimeout(5000);
        return socket;
    }

    private static String read(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] chunk = new byte[4096];
        int n;
        while ((n = in.read(chunk)) > 0) {
            out.write(chunk, 0, n);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private String exchange(String request) throws IOException {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return read(socket.getInputStream());
        }
    }

    @Test
    void aRequestNotWholeWithinTheDeadlineIsRefusedWith408() throws IOException {
        try (Socket socket = connect()) {
            socket.getOutputStream().write("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n{".getBytes(StandardCharsets.ISO_8859_1));
            String answer = read(socket.getInputStream());
            assertThat(answer).startsWith("HTTP/1.1 408 ").contains("Connection: close")
                    .contains("\"__type\":\"InvalidRequestException\"").contains("not complete within 1500 ms");
        }
        // A head that never ends is refused the same way.
        try (Socket socket = connect()) {
            socket.getOutputStream().write("GET /x HTTP/1.1\r\nHost:".getBytes(StandardCharsets.ISO_8859_1));
            assertThat(read(socket.getInputStream())).startsWith("HTTP/1.1 408 ");
        }
    }

    @Test
    void anIdleKeptAliveConnectionIsClosedQuietly() throws IOException {
        try (Socket socket = connect()) {
            socket.getOutputStream().write("GET /a?b=c HTTP/1.1\r\nHost: h\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            // The whole exchange, then the close after the idle time: nothing more is written.
            assertThat(read(socket.getInputStream())).startsWith("HTTP/1.1 200 ").endsWith("GET /a b=c 0")
                    .doesNotContain("408");
        }
    }

    @Test
    void expectContinueIsAnsweredBeforeTheBodyAndLimitsApplyFirst() throws IOException {
        try (Socket socket = connect()) {
            socket.getOutputStream().write("PUT /p HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 5\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            byte[] interim = socket.getInputStream().readNBytes("HTTP/1.1 100 Continue\r\n\r\n".length());
            assertThat(new String(interim, StandardCharsets.ISO_8859_1)).isEqualTo("HTTP/1.1 100 Continue\r\n\r\n");
            socket.getOutputStream().write("abcde".getBytes(StandardCharsets.ISO_8859_1));
            assertThat(read(socket.getInputStream())).startsWith("HTTP/1.1 200 ").endsWith("PUT /p null 5");
        }
        // Too large: 413 instead of 100 Continue.
        assertThat(exchange("PUT /p HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 101\r\n\r\n"))
                .startsWith("HTTP/1.1 413 ").doesNotContain("100 Continue");
        assertThat(exchange("GET / HTTP/1.1\r\nHost: h\r\nX: " + "a".repeat(2000) + "\r\n\r\n")).startsWith("HTTP/1.1 431 ");
        assertThat(exchange("HEAD /h HTTP/1.0\r\n\r\n")).startsWith("HTTP/1.1 200 ").contains("Content-Length: 14")
                .endsWith("\r\n\r\n");
    }

    @Test
    void connectionsBeyondTheLimitAreRefusedAsThrottled() throws IOException {
        List<Socket> held = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                held.add(connect());
            }
            assertThat(exchange("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")).startsWith("HTTP/1.1 429 ")
                    .contains("ThrottlingException");
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
        // Once they are closed (which the server sees a moment later), connections are served again, each
        // counted once: more than the limit of them, one after the other, are all served.
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        String answer = "";
        while (!answer.startsWith("HTTP/1.1 200 ") && System.nanoTime() < deadline) {
            answer = exchange("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
        }
        assertThat(answer).startsWith("HTTP/1.1 200 ");
        for (int i = 0; i < 12; i++) {
            assertThat(exchange("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")).startsWith("HTTP/1.1 200 ");
        }
    }

    @Test
    void aHeadTrickledByteByByteIsRefusedAtTheDeadlineAndAWholeOneIsNot() throws Exception {
        try (Socket socket = connect()) {
            java.io.OutputStream out = socket.getOutputStream();
            long started = System.nanoTime();
            // One byte each 100 ms: never idle long enough for Jetty's idle timeout.
            for (byte b : "GET /x HTTP/1.1\r\nHost: h\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".getBytes(
                    StandardCharsets.ISO_8859_1)) {
                try {
                    out.write(b);
                    out.flush();
                } catch (IOException closed) {
                    break; // refused and closed mid-head
                }
                if (socket.getInputStream().available() > 0) {
                    break;
                }
                Thread.sleep(100);
            }
            assertThat(read(socket.getInputStream())).startsWith("HTTP/1.1 408 ").contains("not complete within 1500 ms");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(3500));
        }
        // Two requests on one connection, the second's head after the first is answered: both are served.
        try (Socket socket = connect()) {
            socket.getOutputStream().write("GET /1 HTTP/1.1\r\nHost: h\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            StringBuilder first = new StringBuilder();
            for (int c = 0; c >= 0 && !first.toString().endsWith("GET /1 null 0"); ) {
                c = socket.getInputStream().read();
                first.append((char) c);
            }
            assertThat(first.toString()).startsWith("HTTP/1.1 200 ");
            socket.getOutputStream().write("GET /2 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            assertThat(read(socket.getInputStream())).startsWith("HTTP/1.1 200 ").endsWith("GET /2 null 0");
        }
    }
}
