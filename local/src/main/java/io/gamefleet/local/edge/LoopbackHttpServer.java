package io.gamefleet.local.edge;

import com.sun.net.httpserver.Headers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * A small HTTP/1.1 server for the edge, on one loopback port: one thread reads every connection
 * (non-blocking), and a request reaches {@link Dispatcher} only once its head and whole body are
 * in, so a slow or silent client holds no worker. It refuses what it cannot take with the JSON
 * error body every other refusal has: a request line or header it cannot parse (400), a head over
 * {@link Limits#maxHeadBytes} (431), a body over {@link Limits#maxBodyBytes} (413, from its
 * Content-Length before reading it, or as soon as a chunked body grows past it), and a request
 * not complete within {@link Limits#requestDeadline} of its first byte (408).
 *
 * <p>Keep-alive, pipelining (one request at a time per connection), chunked request bodies and
 * {@code Expect: 100-continue} are supported; responses always carry a Content-Length.
 */
final class LoopbackHttpServer implements AutoCloseable {
    private static final Pattern LINE_BREAK = Pattern.compile("\r?\n");
    /** What one request and the whole server may take. */
    record Limits(int maxHeadBytes, long maxBodyBytes, Duration requestDeadline, Duration keepAliveIdle,
            Duration writeDeadline, int maxConnections) {
        /** API Gateway's 10 MB payload limit; 10 s from a request's first byte to its last. */
        static Limits defaults() {
            return new Limits(64 * 1024, 10L * 1024 * 1024, Duration.ofSeconds(10), Duration.ofSeconds(60),
                    Duration.ofSeconds(30), 4096);
        }
    }

    /** A request as it arrived: the target still percent-encoded. */
    record Request(String method, String rawPath, String rawQuery, Headers headers, byte[] body) {}

    /** Answers one request, once, from any thread. */
    interface Responder {
        void respond(int status, Map<String, List<String>> headers, byte[] body);
    }

    /** Called on the I/O thread for each complete request: it must hand the work to another thread. */
    interface Dispatcher {
        void dispatch(Request request, Responder responder);
    }

    private static final Map<Integer, String> REASONS = Map.ofEntries(Map.entry(100, "Continue"),
            Map.entry(200, "OK"), Map.entry(201, "Created"), Map.entry(202, "Accepted"), Map.entry(204, "No Content"),
            Map.entry(400, "Bad Request"), Map.entry(403, "Forbidden"), Map.entry(404, "Not Found"),
            Map.entry(405, "Method Not Allowed"), Map.entry(408, "Request Timeout"), Map.entry(409, "Conflict"),
            Map.entry(413, "Content Too Large"), Map.entry(429, "Too Many Requests"),
            Map.entry(431, "Request Header Fields Too Large"), Map.entry(500, "Internal Server Error"),
            Map.entry(501, "Not Implemented"), Map.entry(503, "Service Unavailable"),
            Map.entry(504, "Gateway Timeout"));
    private static final int MAX_HEADERS = 200;
    private static final int MAX_CHUNK_LINE = 4096;

    private final Limits limits;
    private final Dispatcher dispatcher;
    private final Consumer<String> log;
    private final ServerSocketChannel listener;
    private final Selector selector;
    private final Queue<Runnable> pending = new ConcurrentLinkedQueue<>();
    private final Set<Connection> connections = new HashSet<>();
    private final Thread io;
    private volatile boolean closed;

    LoopbackHttpServer(int port, Limits limits, Dispatcher dispatcher, Consumer<String> log) throws IOException {
        this.limits = limits;
        this.dispatcher = dispatcher;
        this.log = log;
        this.selector = Selector.open();
        this.listener = ServerSocketChannel.open();
        listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        listener.bind(new InetSocketAddress("127.0.0.1", port), 512);
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT);
        io = new Thread(this::loop, "edge-io");
        io.setDaemon(true);
        io.start();
    }

    int port() {
        return listener.socket().getLocalPort();
    }

    /** The number of open connections (for tests and health). */
    int connections() {
        return connections.size();
    }

    @Override
    public void close() {
        closed = true;
        selector.wakeup();
        try {
            io.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------ the I/O loop

    private void loop() {
        try {
            while (!closed) {
                selector.select(200);
                Runnable task;
                while ((task = pending.poll()) != null) {
                    task.run();
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        accept();
                    } else {
                        Connection c = (Connection) key.attachment();
                        try {
                            if (key.isWritable()) {
                                c.flush();
                            }
                            if (key.isValid() && key.isReadable()) {
                                c.read();
                            }
                        } catch (IOException | RuntimeException e) {
                            if (!(e instanceof IOException)) {
                                log.accept("edge: a connection failed: " + e);
                            }
                            c.close();
                        }
                    }
                }
                selector.selectedKeys().clear();
                long now = System.nanoTime();
                for (Connection c : List.copyOf(connections)) {
                    c.checkDeadline(now);
                }
            }
        } catch (IOException | ClosedSelectorException e) {
            if (!closed) {
                log.accept("edge: the server stopped: " + e);
            }
        } finally {
            for (Connection c : List.copyOf(connections)) {
                c.close();
            }
            try {
                listener.close();
                selector.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    private void accept() throws IOException {
        SocketChannel channel;
        while ((channel = listener.accept()) != null) {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            Connection c = new Connection(channel);
            if (connections.size() >= limits.maxConnections()) {
                c.refuse(429, "ThrottlingException", "the local edge has " + connections.size()
                        + " open connections, its limit; try again");
                continue;
            }
            connections.add(c);
        }
    }

    /** One client connection, read and written only on the I/O thread. */
    private final class Connection {
        private enum State { HEAD, BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILERS, DISPATCHED, CLOSING }

        private final SocketChannel channel;
        private final SelectionKey key;
        private byte[] buffer = new byte[8192];
        private int start;
        private int end;
        private final ArrayDeque<ByteBuffer> output = new ArrayDeque<>();
        private State state = State.HEAD;
        private long deadline;
        private boolean inputClosed;

        // The request being read.
        private String method;
        private String rawPath;
        private String rawQuery;
        private Headers headers;
        private boolean keepAlive;
        private long remaining;
        private ByteArrayOutputStream body;

        Connection(SocketChannel channel) throws IOException {
            this.channel = channel;
            this.key = channel.register(selector, SelectionKey.OP_READ, this);
            idle();
        }

        void read() throws IOException {
            if (start == end) {
                start = 0;
                end = 0;
            }
            if (end == buffer.length) {
                if (start > 0) {
                    System.arraycopy(buffer, start, buffer, 0, end - start);
                    end -= start;
                    start = 0;
                } else {
                    buffer = java.util.Arrays.copyOf(buffer, buffer.length * 2);
                }
            }
            int n = channel.read(ByteBuffer.wrap(buffer, end, buffer.length - end));
            if (n < 0) {
                inputClosed = true;
                if (state == State.DISPATCHED || !output.isEmpty()) {
                    key.interestOps(key.interestOps() & ~SelectionKey.OP_READ);
                } else {
                    close(); // mid-request or between requests: nothing to answer
                }
                return;
            }
            if (state == State.HEAD && start == end && n > 0) {
                deadline = System.nanoTime() + limits.requestDeadline().toNanos(); // the request's first byte
            }
            end += n;
            process();
        }

        /** Parses what has arrived, as far as it goes. */
        private void process() throws IOException {
            while (state != State.DISPATCHED && state != State.CLOSING) {
                boolean progressed = switch (state) {
                    case HEAD -> head();
                    case BODY -> fixedBody();
                    case CHUNK_SIZE -> chunkSize();
                    case CHUNK_DATA -> chunkData();
                    case CHUNK_END -> chunkEnd();
                    case TRAILERS -> trailers();
                    default -> false;
                };
                if (!progressed) {
                    return;
                }
            }
        }

        private boolean head() throws IOException {
            // Empty lines before a request line are ignored (RFC 9112, 2.2).
            while (start < end && (buffer[start] == '\r' || buffer[start] == '\n')) {
                start++;
            }
            int headEnd = findHeadEnd();
            if (headEnd < 0) {
                if (end - start > limits.maxHeadBytes()) {
                    refuse(431, "InvalidRequestException", "the request line and headers are larger than "
                            + limits.maxHeadBytes() + " bytes");
                }
                return false;
            }
            if (headEnd - start > limits.maxHeadBytes()) {
                refuse(431, "InvalidRequestException", "the request line and headers are larger than "
                        + limits.maxHeadBytes() + " bytes");
                return false;
            }
            String head = new String(buffer, start, headEnd - start, StandardCharsets.ISO_8859_1);
            start = headEnd;
            String problem = parseHead(head);
            if (problem != null) {
                refuse(400, "InvalidRequestException", problem);
                return false;
            }
            return startBody();
        }

        /** The index just past the empty line that ends the head, or -1. */
        private int findHeadEnd() {
            for (int i = start; i < end; i++) {
                if (buffer[i] == '\n') {
                    if (i + 1 < end && buffer[i + 1] == '\n') {
                        return i + 2;
                    }
                    if (i + 2 < end && buffer[i + 1] == '\r' && buffer[i + 2] == '\n') {
                        return i + 3;
                    }
                }
            }
            return -1;
        }

        /** Reads the request line and headers; a message saying what is wrong, or null. */
        private String parseHead(String head) {
            String[] lines = LINE_BREAK.split(head, -1);
            String requestLine = lines[0];
            String[] parts = requestLine.split(" ", -1);
            if (parts.length != 3) {
                return "the request line must be METHOD TARGET HTTP-VERSION: " + printable(requestLine);
            }
            if (!isToken(parts[0])) {
                return "the method is not an HTTP token: " + printable(parts[0]);
            }
            if (!parts[2].equals("HTTP/1.1") && !parts[2].equals("HTTP/1.0")) {
                return "HTTP/1.1 is spoken here, not " + printable(parts[2]);
            }
            String target = parts[1];
            for (int i = 0; i < target.length(); i++) {
                char c = target.charAt(i);
                if (c <= 0x20 || c >= 0x7f) {
                    return "the request target holds a character that must be percent-encoded: "
                            + printable(target);
                }
            }
            String lower = target.toLowerCase(Locale.ROOT);
            if (lower.startsWith("http://") || lower.startsWith("https://")) { // absolute-form
                int slash = target.indexOf('/', lower.indexOf("//") + 2);
                target = slash < 0 ? "/" : target.substring(slash);
            }
            if (!target.startsWith("/")) {
                return "the request target must be a path starting with /: " + printable(target);
            }
            int hash = target.indexOf('#');
            if (hash >= 0) {
                target = target.substring(0, hash);
            }
            int q = target.indexOf('?');
            method = parts[0];
            rawPath = q < 0 ? target : target.substring(0, q);
            rawQuery = q < 0 ? null : target.substring(q + 1);
            headers = new Headers();
            int count = 0;
            for (int i = 1; i < lines.length; i++) {
                String line = lines[i];
                if (line.isEmpty()) {
                    continue;
                }
                if (++count > MAX_HEADERS) {
                    return "more than " + MAX_HEADERS + " header fields";
                }
                if (line.charAt(0) == ' ' || line.charAt(0) == '\t') {
                    return "folded header lines are not accepted";
                }
                int colon = line.indexOf(':');
                if (colon <= 0 || !isToken(line.substring(0, colon))) {
                    return "a header line is not NAME: VALUE: " + printable(line);
                }
                String value = line.substring(colon + 1).strip();
                for (int j = 0; j < value.length(); j++) {
                    char c = value.charAt(j);
                    if (c < 0x20 && c != '\t' || c == 0x7f) {
                        return "the value of header " + line.substring(0, colon) + " holds a control character";
                    }
                }
                headers.add(line.substring(0, colon), value);
            }
            String connection = String.join(",", headers.getOrDefault("Connection", List.of())).toLowerCase(Locale.ROOT);
            keepAlive = parts[2].equals("HTTP/1.1") ? !connection.contains("close") : connection.contains("keep-alive");
            return null;
        }

        /** Decides how the body comes, refusing one too large before reading it. */
        private boolean startBody() throws IOException {
            List<String> lengths = headers.getOrDefault("Content-Length", List.of());
            List<String> encodings = headers.getOrDefault("Transfer-Encoding", List.of());
            body = new ByteArrayOutputStream();
            if (!encodings.isEmpty()) {
                if (!lengths.isEmpty()) {
                    refuse(400, "InvalidRequestException", "a request may not have both Content-Length and "
                            + "Transfer-Encoding");
                    return false;
                }
                if (encodings.size() != 1 || !encodings.get(0).equalsIgnoreCase("chunked")) {
                    refuse(400, "InvalidRequestException", "Transfer-Encoding " + printable(String.join(",", encodings))
                            + " is not supported; send chunked or a Content-Length");
                    return false;
                }
                continueIfExpected();
                state = State.CHUNK_SIZE;
                return true;
            }
            long length = 0;
            if (!lengths.isEmpty()) {
                String first = lengths.get(0);
                boolean same = lengths.stream().allMatch(first::equals);
                if (!same || first.isEmpty() || first.length() > 18 || !first.chars().allMatch(Character::isDigit)) {
                    refuse(400, "InvalidRequestException", "Content-Length must be one whole number of bytes: "
                            + printable(String.join(",", lengths)));
                    return false;
                }
                length = Long.parseLong(first);
            }
            if (length > limits.maxBodyBytes()) {
                refuse(413, "InvalidRequestException", "the request body of " + length + " bytes is larger than "
                        + limits.maxBodyBytes() + " bytes, the most API Gateway takes");
                return false;
            }
            if (length > 0) {
                continueIfExpected();
            }
            remaining = length;
            state = State.BODY;
            return true;
        }

        private void continueIfExpected() throws IOException {
            String expect = headers.getFirst("Expect");
            if (expect != null && expect.equalsIgnoreCase("100-continue")) {
                send(ByteBuffer.wrap("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1)));
            }
        }

        private boolean fixedBody() {
            if (!copyBody()) {
                return false;
            }
            dispatch();
            return true;
        }

        /** Moves what has arrived of the body (up to what is still due) into it; true once all of it is in. */
        private boolean copyBody() {
            int n = (int) Math.min(remaining, end - start);
            body.write(buffer, start, n);
            start += n;
            remaining -= n;
            return remaining == 0;
        }

        private boolean chunkSize() throws IOException {
            int eol = lineEnd(MAX_CHUNK_LINE);
            if (eol < 0) {
                return false;
            }
            String line = new String(buffer, start, eol - start, StandardCharsets.ISO_8859_1).strip();
            start = skipLine(eol);
            int semicolon = line.indexOf(';'); // chunk extensions are ignored
            String size = (semicolon < 0 ? line : line.substring(0, semicolon)).strip();
            long n;
            try {
                n = size.isEmpty() || size.length() > 15 ? -1 : Long.parseLong(size, 16);
            } catch (NumberFormatException e) {
                n = -1;
            }
            if (n < 0) {
                refuse(400, "InvalidRequestException", "a chunk size is not a hexadecimal number: " + printable(line));
                return false;
            }
            if (body.size() + n > limits.maxBodyBytes()) {
                refuse(413, "InvalidRequestException", "the chunked request body grew larger than "
                        + limits.maxBodyBytes() + " bytes, the most API Gateway takes");
                return false;
            }
            remaining = n;
            state = n == 0 ? State.TRAILERS : State.CHUNK_DATA;
            return true;
        }

        private boolean chunkData() {
            if (!copyBody()) {
                return false;
            }
            state = State.CHUNK_END;
            return true;
        }

        private boolean chunkEnd() throws IOException {
            int eol = lineEnd(2);
            if (eol < 0) {
                return false;
            }
            if (eol != start) {
                refuse(400, "InvalidRequestException", "a chunk's data must be followed by CRLF");
                return false;
            }
            start = skipLine(eol);
            state = State.CHUNK_SIZE;
            return true;
        }

        private boolean trailers() throws IOException {
            int eol = lineEnd(limits.maxHeadBytes());
            if (eol < 0) {
                return false;
            }
            boolean last = eol == start;
            start = skipLine(eol);
            if (last) {
                dispatch();
            }
            return true;
        }

        /** The index of the line's CR or LF that ends the line at start, or -1 (refused past {@code max}). */
        private int lineEnd(int max) throws IOException {
            for (int i = start; i < end; i++) {
                if (buffer[i] == '\n') {
                    return i > start && buffer[i - 1] == '\r' ? i - 1 : i;
                }
                if (i - start > max) {
                    refuse(400, "InvalidRequestException", "a line of the chunked body is longer than " + max
                            + " bytes");
                    return -1;
                }
            }
            return -1;
        }

        private int skipLine(int eol) {
            return buffer[eol] == '\r' ? eol + 2 : eol + 1;
        }

        private void dispatch() {
            state = State.DISPATCHED;
            deadline = Long.MAX_VALUE;
            key.interestOps(key.interestOps() & ~SelectionKey.OP_READ);
            Request request = new Request(method, rawPath, rawQuery, headers, body.toByteArray());
            boolean head = method.equals("HEAD");
            boolean close = !keepAlive;
            AtomicBoolean answered = new AtomicBoolean();
            Responder responder = (status, responseHeaders, responseBody) -> {
                if (!answered.compareAndSet(false, true)) {
                    return;
                }
                ByteBuffer bytes = response(status, responseHeaders, head ? new byte[0] : responseBody,
                        responseBody.length, close);
                pending.add(() -> {
                    if (key.isValid()) {
                        try {
                            send(bytes);
                            afterResponse(close);
                        } catch (IOException | RuntimeException e) {
                            close();
                        }
                    }
                });
                selector.wakeup();
            };
            body = null;
            try {
                dispatcher.dispatch(request, responder);
            } catch (RuntimeException e) {
                responder.respond(503, Map.of("Content-Type", List.of("application/json")),
                        error("InternalServiceException", "the local edge is stopping"));
            }
        }

        private void afterResponse(boolean close) {
            if (close || inputClosed) {
                state = State.CLOSING;
                deadline = System.nanoTime() + limits.writeDeadline().toNanos();
                if (output.isEmpty()) {
                    close();
                }
                return;
            }
            state = State.HEAD;
            method = null;
            headers = null;
            idle();
            key.interestOps(key.interestOps() | SelectionKey.OP_READ);
            try {
                if (start < end) {
                    deadline = System.nanoTime() + limits.requestDeadline().toNanos();
                    process(); // a pipelined request already here
                }
            } catch (IOException e) {
                close();
            }
        }

        private void idle() {
            deadline = System.nanoTime() + limits.keepAliveIdle().toNanos();
        }

        void checkDeadline(long now) {
            if (now - deadline < 0) {
                return;
            }
            boolean midRequest = state != State.HEAD || start < end;
            if (state == State.CLOSING || state == State.DISPATCHED || !midRequest) {
                close(); // idle keep-alive, or a client that does not read its response
                return;
            }
            try {
                refuse(408, "InvalidRequestException", "the request was not complete within "
                        + describe(limits.requestDeadline()) + " of its first byte");
            } catch (IOException e) {
                close();
            }
        }

        /** Answers with a JSON error and closes the connection once it is written. */
        void refuse(int status, String type, String message) throws IOException {
            state = State.CLOSING;
            deadline = System.nanoTime() + limits.writeDeadline().toNanos();
            if (key.isValid()) {
                key.interestOps(key.interestOps() & ~SelectionKey.OP_READ);
            }
            send(response(status, Map.of("Content-Type", List.of("application/json")), error(type, message),
                    -1, true));
            if (output.isEmpty()) {
                close();
            }
        }

        private void send(ByteBuffer bytes) throws IOException {
            output.add(bytes);
            flush();
        }

        void flush() throws IOException {
            while (!output.isEmpty()) {
                ByteBuffer next = output.peek();
                channel.write(next);
                if (next.hasRemaining()) {
                    if (key.isValid()) {
                        key.interestOps(key.interestOps() | SelectionKey.OP_WRITE);
                    }
                    return;
                }
                output.poll();
            }
            if (key.isValid()) {
                key.interestOps(key.interestOps() & ~SelectionKey.OP_WRITE);
            }
            if (state == State.CLOSING) {
                close();
            }
        }

        void close() {
            connections.remove(this);
            key.cancel();
            try {
                channel.close();
            } catch (IOException e) {
                // gone anyway
            }
        }
    }

    // ------------------------------------------------------------------ wire helpers

    private static ByteBuffer response(int status, Map<String, List<String>> headers, byte[] body, int length,
            boolean close) {
        StringBuilder head = new StringBuilder(256);
        head.append("HTTP/1.1 ").append(status).append(' ').append(REASONS.getOrDefault(status, "Status")).append("\r\n");
        headers.forEach((name, values) -> {
            if (!name.equalsIgnoreCase("Content-Length") && !name.equalsIgnoreCase("Connection")
                    && !name.equalsIgnoreCase("Transfer-Encoding")) {
                for (String v : values) {
                    head.append(name).append(": ").append(v.replaceAll("[\r\n]", " ")).append("\r\n");
                }
            }
        });
        head.append("Content-Length: ").append(length < 0 ? body.length : length).append("\r\n");
        if (close) {
            head.append("Connection: close\r\n");
        }
        head.append("\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.UTF_8);
        ByteBuffer out = ByteBuffer.allocate(h.length + body.length);
        out.put(h).put(body).flip();
        return out;
    }

    private static String describe(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    static byte[] error(String type, String message) {
        try {
            return Exchange.JSON.writeValueAsBytes(Map.of("__type", type, "Message", message));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** At most 200 characters of what arrived, non-printable ones escaped, for an error message. */
    private static String printable(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length() && out.length() < 200; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7f) {
                out.append(c);
            } else {
                out.append(String.format("\\x%02x", (int) c & 0xff));
            }
        }
        return out.length() >= 200 ? out + "..." : out.toString();
    }
}
