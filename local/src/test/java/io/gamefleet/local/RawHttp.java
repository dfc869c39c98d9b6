package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.local.demo.ApiClient;
import io.gamefleet.local.edge.Principal;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * HTTP/1.1 over a plain socket, for what no HTTP client library sends: a request line that is not
 * valid, a path with a malformed percent-escape, a body that never comes. Answers are read as they
 * arrive on the wire.
 */
final class RawHttp {
    /** A response as read from the socket. */
    record Answer(int status, Map<String, String> headers, String body, byte[] bytes) {
        @Override
        public String toString() {
            return "Answer[status=" + status + ", headers=" + headers + ", body=" + body + "]";
        }

        JsonNode json() {
            try {
                return GamefleetClient.JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + this, e);
            }
        }

        /** Asserts a refusal of this status, with docs/api.md's JSON error body, and returns its Message. */
        String refusal(int expectedStatus, String expectedType) {
            assertThat(status).as("%s", this).isEqualTo(expectedStatus);
            assertThat(headers.get("content-type")).as("%s", this).startsWith("application/json");
            JsonNode error = json();
            assertThat(error.get("__type").asText()).as("%s", this).isEqualTo(expectedType);
            assertThat(error.get("Message").asText()).as("%s", this).isNotBlank();
            assertThat(error.size()).as("%s", this).isEqualTo(2);
            return error.get("Message").asText();
        }
    }

    private final URI endpoint;

    RawHttp(URI endpoint) {
        this.endpoint = endpoint;
    }

    Socket connect() {
        try {
            Socket socket = new Socket(endpoint.getHost(), endpoint.getPort());
            socket.setSoTimeout(20_000);
            return socket;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends these bytes as they are on a new connection and reads one answer. */
    Answer exchange(byte[] request) {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(request);
            socket.getOutputStream().flush();
            return read(socket.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Answer exchange(String request) {
        return exchange(request.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** A request signed as {@code principal} would sign it, with the target sent exactly as given. */
    Answer signed(Principal principal, Clock clock, String method, String target, String body) {
        return signed(principal, clock, method, target, body == null ? null : body.getBytes(StandardCharsets.UTF_8),
                Map.of());
    }

    /**
     * The same with any bytes as the body, and headers besides the signed ones. A target that no
     * SigV4 signer takes (a malformed escape) goes unsigned.
     */
    Answer signed(Principal principal, Clock clock, String method, String target, byte[] body,
            Map<String, String> extraHeaders) {
        byte[] bytes = body == null ? new byte[0] : body;
        Map<String, List<String>> headers;
        try {
            headers = ApiClient.signedHeaders(endpoint, LocalAccount.REGION,
                    AwsCredentialsIdentity.create(principal.accessKeyId(), principal.secretAccessKey()), clock, method,
                    target, body != null, bytes);
        } catch (RuntimeException unsignable) {
            headers = Map.of("Content-Type", List.of("application/json"));
        }
        StringBuilder head = new StringBuilder(method + " " + target + " HTTP/1.1\r\n");
        headers.forEach((name, values) -> values.forEach(v -> head.append(name).append(": ").append(v).append("\r\n")));
        extraHeaders.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append("Content-Length: ").append(bytes.length).append("\r\nConnection: close\r\n\r\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(bytes);
        return exchange(out.toByteArray());
    }

    static Answer read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the connection closed before a whole response head: " + head);
            }
            head.write(b);
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
        }
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
        }
        if (status == 100) {
            return read(in);
        }
        String length = headers.get("content-length");
        byte[] body = length == null ? in.readAllBytes() : in.readNBytes(Integer.parseInt(length));
        return new Answer(status, headers, new String(body, StandardCharsets.UTF_8), body);
    }
}
