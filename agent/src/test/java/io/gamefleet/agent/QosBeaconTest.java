package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.DatagramChannel;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The QoS beacon over real UDP on loopback: PlayFab's clients' pings get PlayFab's reply, nothing
 * else gets any, a flood from one address is cut to its share while another address is still
 * answered, and a busy port is a logged start without the beacon. A reply that should not come is
 * shown not to by a later ping's reply coming first: the beacon answers in order, on one thread.
 */
class QosBeaconTest {
    private static final InetAddress LOOPBACK = address("127.0.0.1");
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));
    private QosBeacon beacon;

    @AfterEach
    void close() throws Exception {
        if (beacon != null) {
            beacon.close();
        }
    }

    private QosBeacon open(QosReplyRate rate) {
        beacon = QosBeacon.open(new InetSocketAddress(LOOPBACK, 0), rate, new AgentLog(Clock.systemUTC(), log::add)).orElseThrow();
        return beacon;
    }

    @Test
    void theCSharpSdksPingComesBackWithItsHeaderZeroedAndItsTicksAsSent() throws Exception {
        open(QosReplyRate.defaults(clock));
        // CSharpSDK's RegionPinger: 0xFF 0xFF, then DateTime.UtcNow.Ticks as BitConverter writes it (little-endian).
        long ticks = 638_712_345_678_901_234L;
        ByteBuffer ping = ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN).put((byte) 0xFF).put((byte) 0xFF).putLong(ticks);
        try (DatagramChannel client = client("127.0.0.1")) {
            byte[] reply = pingAndReceive(client, ping.array());
            // What RegionPinger.VerifyResponseBuffer checks: 0x00 0x00, then the same ticks.
            assertThat(reply).hasSize(10);
            assertThat(reply[0]).isZero();
            assertThat(reply[1]).isZero();
            assertThat(ByteBuffer.wrap(reply, 2, 8).order(ByteOrder.LITTLE_ENDIAN).getLong()).isEqualTo(ticks);
        }
    }

    @Test
    void theCppSdksTwoBytePingComesBackAsTwoZeroBytes() throws Exception {
        open(QosReplyRate.defaults(clock));
        try (DatagramChannel client = client("127.0.0.1")) {
            // XPlatCppSdk's QoSSocket sends strlen of its message: the 0xFF 0xFF header alone.
            assertThat(pingAndReceive(client, new byte[] {(byte) 0xFF, (byte) 0xFF})).containsExactly(0, 0);
            byte[] longest = ping(QosBeacon.MAX_PING, 7);
            byte[] reply = pingAndReceive(client, longest);
            assertThat(reply).hasSize(QosBeacon.MAX_PING);
            assertThat(Arrays.copyOfRange(reply, 2, reply.length)).isEqualTo(Arrays.copyOfRange(longest, 2, longest.length));
        }
    }

    @Test
    void malformedAndOversizedDatagramsGetNoReply() throws Exception {
        open(QosReplyRate.defaults(clock));
        try (DatagramChannel client = client("127.0.0.1")) {
            InetSocketAddress to = new InetSocketAddress(LOOPBACK, beacon.port());
            byte[] reflected = ping(10, 1);
            reflected[0] = 0;
            reflected[1] = 0; // a reply: two beacons must not answer each other for ever
            byte[] halfHeader = ping(10, 2);
            halfHeader[1] = 0x7F;
            for (byte[] datagram : List.of(new byte[0], new byte[] {(byte) 0xFF}, halfHeader, reflected,
                    ping(QosBeacon.MAX_PING + 1, 3), ping(65_000, 4))) {
                client.send(ByteBuffer.wrap(datagram), to);
            }
            byte[] marker = ping(10, 9);
            byte[] first = pingAndReceive(client, marker);
            assertThat(first[2]).as("the first reply is the well-formed ping's, sent last").isEqualTo((byte) 9);
        }
    }

    @Test
    void aFloodFromOneAddressIsCutToItsShareWhileAnotherAddressIsStillAnswered() throws Exception {
        open(new QosReplyRate(100, 2_000, 10_000, clock)); // the clock stands still: no bucket refills
        try (DatagramChannel flooder = client("127.0.0.2"); DatagramChannel other = client("127.0.0.3")) {
            InetSocketAddress to = new InetSocketAddress(LOOPBACK, beacon.port());
            for (int i = 0; i < 130; i++) {
                flooder.send(ByteBuffer.wrap(ping(10, i)), to);
            }
            // Answered after every flooding ping was read: their replies, if any, are queued at the flooder by then.
            assertThat(pingAndReceive(other, ping(10, 1))[2]).isEqualTo((byte) 1);
            assertThat(drain(flooder)).as("the flooder's replies").isEqualTo(100);

            clock.advance(Duration.ofMillis(200)); // a fifth of a second: 20 more for the flooder
            for (int i = 0; i < 30; i++) {
                flooder.send(ByteBuffer.wrap(ping(10, i)), to);
            }
            assertThat(pingAndReceive(other, ping(10, 2))[2]).isEqualTo((byte) 2);
            assertThat(drain(flooder)).isEqualTo(20);
        }
    }

    @Test
    void aBusyPortIsSaidOnceAndTheBeaconIsLeftOut() throws Exception {
        try (DatagramChannel busy = DatagramChannel.open().bind(new InetSocketAddress(LOOPBACK, 0))) {
            int port = ((InetSocketAddress) busy.getLocalAddress()).getPort();
            assertThat(QosBeacon.open(new InetSocketAddress(LOOPBACK, port), QosReplyRate.defaults(clock),
                    new AgentLog(Clock.systemUTC(), log::add))).isEmpty();
            assertThat(log).singleElement().satisfies(l -> assertThat(l)
                    .contains("WARN no QoS beacon: cannot listen on UDP 127.0.0.1:" + port + " (")
                    .endsWith("The agent goes on without it"));
        }
    }

    /** A ping of {@code length} bytes: the header, then {@code tag} and a filler. */
    private static byte[] ping(int length, int tag) {
        byte[] ping = new byte[length];
        Arrays.fill(ping, (byte) 0x5A);
        ping[0] = (byte) 0xFF;
        if (length > 1) {
            ping[1] = (byte) 0xFF;
        }
        if (length > 2) {
            ping[2] = (byte) tag;
        }
        return ping;
    }

    private static DatagramChannel client(String address) throws Exception {
        DatagramChannel channel = DatagramChannel.open().bind(new InetSocketAddress(address(address), 0));
        channel.setOption(StandardSocketOptions.SO_RCVBUF, 1 << 20);
        return channel;
    }

    /** Sends the ping and waits for the next reply (a bound on the wait, so a missing reply fails instead of hanging). */
    private byte[] pingAndReceive(DatagramChannel client, byte[] ping) throws Exception {
        client.send(ByteBuffer.wrap(ping), new InetSocketAddress(LOOPBACK, beacon.port()));
        var executor = Executors.newSingleThreadExecutor();
        try {
            Future<byte[]> reply = executor.submit(() -> {
                ByteBuffer buffer = ByteBuffer.allocate(70_000);
                client.receive(buffer);
                buffer.flip();
                byte[] bytes = new byte[buffer.remaining()];
                buffer.get(bytes);
                return bytes;
            });
            return reply.get(30, TimeUnit.SECONDS);
        } finally {
            executor.shutdownNow();
        }
    }

    /** The replies queued at the client now, without waiting for more. */
    private static int drain(DatagramChannel client) throws Exception {
        client.configureBlocking(false);
        ByteBuffer buffer = ByteBuffer.allocate(70_000);
        int replies = 0;
        while (client.receive(buffer) != null) {
            replies++;
            buffer.clear();
        }
        client.configureBlocking(true);
        return replies;
    }

    private static InetAddress address(String address) {
        try {
            return InetAddress.getByName(address);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
