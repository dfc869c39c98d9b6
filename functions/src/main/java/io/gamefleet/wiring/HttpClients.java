package io.gamefleet.wiring;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.crt.AwsCrtHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * The SDK HTTP client of an AWS client, the one that starts the function fastest for its endpoint
 * and its kind of start (docs/capacity.md, "Cold starts"):
 * <ul>
 * <li>HTTPS in a fresh JVM (Lambda's on-demand or provisioned start, or a region without
 * SnapStart): the AWS CRT client. Its TLS is native, so the first request skips JSSE's one-time
 * setup (the default SSL context, the trust store, the handshake's classes), which costs about
 * 200 ms of CPU more than the CRT's own start.
 * <li>Plain HTTP (the local profile), and a SnapStart start: the URL connection client, whose start
 * is the lightest when there is no TLS to set up, and whose JSSE setup a SnapStart snapshot already
 * holds (nothing native or with threads of its own in the snapshot).
 * </ul>
 * Both honour the {@code javax.net.ssl.trustStore} properties, so a custom trust store applies to
 * either; without them the CRT trusts the system's store, the URL connection client the JDK's.
 */
final class HttpClients {
    /** Lambda's {@code AWS_LAMBDA_INITIALIZATION_TYPE} for a start whose memory becomes a SnapStart snapshot. */
    static final String SNAP_START = "snap-start";
    /** The shortest time without progress the CRT's connection health check accepts. */
    private static final Duration CRT_SHORTEST = Duration.ofSeconds(2);

    private HttpClients() {}

    /** Which client {@link #forEndpoint} makes. */
    enum Kind { CRT, URL_CONNECTION }

    /** {@code endpoint} empty is the service's regional endpoint, which is HTTPS. */
    static Kind kind(Optional<String> endpoint, Map<String, String> environment) {
        boolean https = endpoint.map(e -> e.regionMatches(true, 0, "https:", 0, 6)).orElse(true);
        boolean snapStart = SNAP_START.equals(environment.get("AWS_LAMBDA_INITIALIZATION_TYPE"));
        return https && !snapStart ? Kind.CRT : Kind.URL_CONNECTION;
    }

    /** {@code readTimeout}: the longest wait for the next bytes of an answer. */
    static SdkHttpClient forEndpoint(Optional<String> endpoint, Map<String, String> environment, Duration readTimeout) {
        return kind(endpoint, environment) == Kind.CRT ? crt(readTimeout) : urlConnection(readTimeout);
    }

    /**
     * No read timeout of its own: a connection that carries less than a byte a second for {@code
     * readTimeout} is closed, which ends a stalled answer as the URL connection client's read
     * timeout does. The CRT measures in whole seconds, two at least; a shorter bound is the SDK
     * call's own timeout (a notice's, say).
     */
    private static SdkHttpClient crt(Duration readTimeout) {
        nameTheLibc();
        Duration unproductive = readTimeout.compareTo(CRT_SHORTEST) < 0 ? CRT_SHORTEST : readTimeout;
        return AwsCrtHttpClient.builder()
                .connectionTimeout(AwsServices.CONNECT_TIMEOUT)
                .tlsNegotiationTimeout(readTimeout)
                .connectionHealthConfiguration(h -> h.minimumThroughputInBps(1L).minimumThroughputTimeout(unproductive))
                .useTrustStoreSystemProperties(true)
                .build();
    }

    /**
     * The CRT finds out which C library the system has by running {@code ldd --version}, a child
     * process on every start, unless told ({@code aws.crt.libc}). musl's dynamic loader is a file of
     * its own ({@code /lib/ld-musl-<arch>.so.1}); without one the system's libc is glibc (Lambda's
     * Amazon Linux, for whose glibc the Lambda jar keeps the CRT's libraries alone).
     */
    private static void nameTheLibc() {
        if (System.getProperty("aws.crt.libc") != null) {
            return;
        }
        String[] musl = new File("/lib").list((dir, name) -> name.startsWith("ld-musl-"));
        System.setProperty("aws.crt.libc", musl != null && musl.length > 0 ? "musl" : "glibc");
    }

    private static SdkHttpClient urlConnection(Duration readTimeout) {
        return UrlConnectionHttpClient.create(uri -> connection(uri, readTimeout));
    }

    /**
     * The URL connection client's connections, opened by the JDK as they are needed: the client's
     * own factory builds an SSL context when the client is made, which loads JSSE and reads the
     * trust store on every cold start, HTTPS endpoint or not; the JDK's HTTPS connections use the
     * default one, made on the first HTTPS connection, with the same trust store.
     */
    private static HttpURLConnection connection(URI uri, Duration readTimeout) {
        try {
            HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection();
            connection.setConnectTimeout(millis(AwsServices.CONNECT_TIMEOUT));
            connection.setReadTimeout(millis(readTimeout));
            return connection;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int millis(Duration d) {
        return (int) d.toMillis();
    }
}
