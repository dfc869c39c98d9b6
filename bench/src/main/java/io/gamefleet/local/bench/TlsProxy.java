package io.gamefleet.local.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * HTTPS in front of a plain-HTTP endpoint on the loopback address, with a certificate made for
 * the run by the JDK's keytool (RSA 2048, as AWS endpoints present): a client that trusts
 * {@link #trustStore} pays for TLS as it would against DynamoDB. Bytes are passed on as they
 * come, each connection to a connection of its own.
 */
final class TlsProxy implements AutoCloseable {
    static final String PASSWORD = "gamefleet";
    private final Path trustStore;
    private final ServerSocket server;
    private final URI target;

    private TlsProxy(Path trustStore, ServerSocket server, URI target) {
        this.trustStore = trustStore;
        this.server = server;
        this.target = target;
        Thread accept = new Thread(this::accept, "tls-proxy");
        accept.setDaemon(true);
        accept.start();
    }

    static TlsProxy start(URI target) throws Exception {
        Path dir = TemporaryFolders.make("gamefleet-tls-");
        Path store = dir.resolve("localhost.p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(keytool, "-genkeypair", "-alias", "local", "-keyalg", "RSA", "-keysize", "2048",
                "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD)
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool could not make a certificate: " + output);
        }
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, PASSWORD.toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        ServerSocket server = tls.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        return new TlsProxy(store, server, target);
    }

    URI endpoint() {
        return URI.create("https://127.0.0.1:" + server.getLocalPort());
    }

    /** The JVM flags that make a JVM trust this proxy's certificate. */
    List<String> trustFlags() {
        return List.of("-Djavax.net.ssl.trustStore=" + trustStore, "-Djavax.net.ssl.trustStorePassword=" + PASSWORD,
                "-Djavax.net.ssl.trustStoreType=PKCS12");
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(target.getHost(), target.getPort());
                // Passed on as they come: Nagle's wait for an ACK would add the peer's delayed-ACK time.
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                if (!server.isClosed()) {
                    System.err.println("tls proxy: " + e.getMessage());
                }
            }
        }
    }

    private static void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException ignored) {
                // the other side closed: so does this one
            } finally {
                try {
                    from.close();
                    to.close();
                } catch (IOException ignored) {
                    // closing
                }
            }
        }, "tls-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
