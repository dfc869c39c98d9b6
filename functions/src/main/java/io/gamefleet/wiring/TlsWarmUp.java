package io.gamefleet.wiring;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * JSSE's one-time setup, done on a thread of its own while the handler is made, so that a fresh
 * container's first HTTPS call finds it done: the default SSL context (the trust store read,
 * SecureRandom seeded), the socket factory the JDK's HTTPS connections use, a ClientHello (cipher
 * suites, an X25519 key share) and the classes that check the server's answer. None of it
 * depends on a request and none of it opens a connection. Without SnapStart Lambda's init has
 * the function's whole CPU, and the SDK client is made on the other thread meanwhile. A plain
 * HTTP endpoint (the local profile, the emulator) needs none of it. As an interceptor of the
 * clients, it is waited for just before a call is sent, so it overlaps with all that comes first:
 * the clients made, the handler made, the request decoded, the call marshalled and signed.
 */
final class TlsWarmUp implements ExecutionInterceptor {
    /** Well under a cold start: past it the first call does what is left, never waits longer. */
    static final Duration MAX_WAIT = Duration.ofSeconds(2);
    private static final TlsWarmUp NONE = new TlsWarmUp(null);
    private final Thread thread;

    private TlsWarmUp(Thread thread) {
        this.thread = thread;
    }

    /** Starts the warm-up for an endpoint ({@code null}: DynamoDB's regional one, HTTPS). */
    static TlsWarmUp start(URI endpoint, String region) {
        if (endpoint != null && !"https".equalsIgnoreCase(endpoint.getScheme())) {
            return NONE;
        }
        String host = endpoint == null ? "dynamodb." + region + ".amazonaws.com" : endpoint.getHost();
        Thread thread = new Thread(() -> warm(host), "tls-warm-up");
        thread.setDaemon(true);
        thread.start();
        return new TlsWarmUp(thread);
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes executionAttributes) {
        await();
    }

    /**
     * Waits for the warm-up, at most {@link #MAX_WAIT} (no wait once it has ended); whether it
     * finished or not, the caller goes on.
     */
    void await() {
        if (thread == null) {
            return;
        }
        try {
            thread.join(MAX_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    boolean started() {
        return thread != null;
    }

    boolean running() {
        return thread != null && thread.isAlive();
    }

    /** Never throws: whatever fails here is simply done (or fails) again on the first call. */
    static boolean warm(String host) {
        try {
            SSLContext context = SSLContext.getDefault();
            HttpsURLConnection.getDefaultSSLSocketFactory();
            SSLEngine engine = context.createSSLEngine(host, 443);
            engine.setUseClientMode(true);
            engine.beginHandshake();
            engine.wrap(ByteBuffer.allocate(0), ByteBuffer.allocate(engine.getSession().getPacketBufferSize()));
            engine.closeOutbound();
            // The server's answer: its key share, its certificate chain and signatures, then records.
            KeyPair share = KeyPairGenerator.getInstance("X25519").generateKeyPair();
            KeyAgreement agreement = KeyAgreement.getInstance("X25519");
            agreement.init(share.getPrivate());
            agreement.doPhase(share.getPublic(), true);
            Mac hkdf = Mac.getInstance("HmacSHA256");
            hkdf.init(new SecretKeySpec(agreement.generateSecret(), "HmacSHA256"));
            hkdf.doFinal(new byte[32]);
            Cipher records = Cipher.getInstance("AES/GCM/NoPadding");
            records.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[16], "AES"), new GCMParameterSpec(128, new byte[12]));
            records.doFinal(new byte[32]);
            CertificateFactory.getInstance("X.509");
            CertPathValidator.getInstance("PKIX");
            Signature.getInstance("RSASSA-PSS");
            Signature.getInstance("SHA256withRSA");
            return true;
        } catch (GeneralSecurityException | IOException | RuntimeException e) {
            return false;
        }
    }
}
