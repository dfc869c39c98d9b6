package io.gamefleet.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.gamefleet.wiring.HttpClients.Kind;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Which HTTP client a function's AWS clients get, and that the CRT one works over TLS and ends a stalled answer. */
class HttpClientsTest {
    private static final String PASSWORD = "gamefleet";
    @TempDir
    static Path dir;
    private static Path store;

    @BeforeAll
    static void aCertificateForTheLoopbackAddress() throws Exception {
        store = dir.resolve("loopback.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "loopback", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=127.0.0.1",
                "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD).redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0).as(output).isTrue();
    }

    @Test
    void httpsInAFreshJvmIsTheCrtsAndEverythingElseTheUrlConnections() {
        Optional<String> regional = Optional.empty();
        Optional<String> https = Optional.of("HTTPS://dynamodb.eu-west-1.amazonaws.com");
        Optional<String> http = Optional.of("http://127.0.0.1:8000");
        assertThat(HttpClients.kind(regional, Map.of())).isEqualTo(Kind.CRT);
        assertThat(HttpClients.kind(https, Map.of("AWS_LAMBDA_INITIALIZATION_TYPE", "on-demand"))).isEqualTo(Kind.CRT);
        assertThat(HttpClients.kind(regional, Map.of("AWS_LAMBDA_INITIALIZATION_TYPE", "provisioned-concurrency")))
                .isEqualTo(Kind.CRT);
        assertThat(HttpClients.kind(regional, Map.of("AWS_LAMBDA_INITIALIZATION_TYPE", HttpClients.SNAP_START)))
                .as("the snapshot holds JSSE's setup, and nothing native").isEqualTo(Kind.URL_CONNECTION);
        assertThat(HttpClients.kind(http, Map.of())).as("no TLS to set up").isEqualTo(Kind.URL_CONNECTION);
    }

    @Test
    void theCrtClientCallsAnHttpsEndpointThatTheTrustStorePropertiesTrust() throws Exception {
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(serverContext()));
        List<String> targets = new ArrayList<>();
        server.createContext("/", exchange -> {
            targets.add(exchange.getRequestHeaders().getFirst("X-Amz-Target"));
            byte[] body = "{\"TableNames\":[\"arena\"]}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.0");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        String endpoint = "https://127.0.0.1:" + server.getAddress().getPort();
        try (DynamoDbClient dynamoDb = client(endpoint, () -> HttpClients.forEndpoint(Optional.of(endpoint), Map.of(),
                Duration.ofSeconds(3)))) {
            assertThat(dynamoDb.listTables().tableNames()).containsExactly("arena");
        } finally {
            server.stop(0);
        }
        assertThat(targets).containsExactly("DynamoDB_20120810.ListTables");
    }

    @Test
    void theCrtClientEndsAHandshakeThatStalls() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            // Accepts the TCP connection (so the TLS handshake starts) and never answers it.
            List<Socket> held = new ArrayList<>();
            Thread accept = new Thread(() -> {
                try {
                    held.add(silent.accept());
                } catch (Exception closed) {
                    // the test is over
                }
            });
            accept.start();
            assertEndsInAnError("https://127.0.0.1:" + silent.getLocalPort());
        }
    }

    @Test
    void theCrtClientEndsAnAnswerThatStalls() throws Exception {
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(serverContext()));
        CountDownLatch over = new CountDownLatch(1);
        server.createContext("/", exchange -> {
            try {
                over.await(); // the request is read; no answer comes
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
        try {
            assertEndsInAnError("https://127.0.0.1:" + server.getAddress().getPort());
        } finally {
            over.countDown();
            server.stop(0);
        }
    }

    /** A call through a CRT client with a 1 s read timeout (2 s, the CRT's shortest) and no SDK timeout. */
    private static void assertEndsInAnError(String endpoint) {
        try (DynamoDbClient dynamoDb = client(endpoint, () -> HttpClients.forEndpoint(Optional.of(endpoint), Map.of(),
                Duration.ofSeconds(1)))) {
            // The guard only stops a hang: the client's own timeouts end the call.
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> assertThatThrownBy(dynamoDb::listTables)
                    .isInstanceOf(SdkClientException.class));
        }
    }

    /** An SDK client with no timeouts or retries of its own, on an HTTP client made while the trust store properties name the test's. */
    private static DynamoDbClient client(String endpoint, Supplier<SdkHttpClient> http) {
        SdkHttpClient made;
        synchronized (System.getProperties()) {
            System.setProperty("javax.net.ssl.trustStore", store.toString());
            System.setProperty("javax.net.ssl.trustStorePassword", PASSWORD);
            System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
            try {
                made = http.get(); // the CRT reads them as it is made
            } finally {
                System.clearProperty("javax.net.ssl.trustStore");
                System.clearProperty("javax.net.ssl.trustStorePassword");
                System.clearProperty("javax.net.ssl.trustStoreType");
            }
        }
        return DynamoDbClient.builder().region(Region.EU_WEST_1).endpointOverride(URI.create(endpoint))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("a", "b")))
                .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .httpClient(made).build();
    }

    private static SSLContext serverContext() throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, PASSWORD.toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        return tls;
    }
}
