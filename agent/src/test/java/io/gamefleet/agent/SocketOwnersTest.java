package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The owner of a loopback connection's client socket, from the kernel's own tables (/proc/net/tcp, tcp6). */
class SocketOwnersTest {
    @TempDir Path work;

    private static InetSocketAddress local(Socket s) {
        return new InetSocketAddress(s.getLocalAddress(), s.getLocalPort());
    }

    @Test
    void aConnectionOfThisJvmIsOwnedByItsUidWhateverTheAddressFamily() throws Exception {
        long uid = Privileges.ofThisProcess().uid();
        try (ServerSocket server = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"));
                Socket client = new Socket("127.0.0.1", server.getLocalPort());
                Socket accepted = server.accept()) {
            // The JDK's sockets are IPv6 ones unless told otherwise: the client is in tcp6 as ::ffff:127.0.0.1.
            assertThat(SocketOwners.PROC_NET.uidOf(local(client), (InetSocketAddress) accepted.getLocalSocketAddress()))
                    .hasValue((int) uid);
            // The server's own end of it is not a client of that address.
            assertThat(SocketOwners.PROC_NET.uidOf((InetSocketAddress) accepted.getLocalSocketAddress(), local(client))).hasValue((int) uid);
            assertThat(SocketOwners.PROC_NET.uidOf(new InetSocketAddress("127.0.0.1", 1), (InetSocketAddress) accepted.getLocalSocketAddress()))
                    .isEmpty();
        }
    }

    @Test
    void anIpv4SocketOfAnotherUidIsThatUidsInTcp() throws Exception {
        Assumptions.assumeTrue(ChildJvm.canSwitchUsers(), "runs a client as another uid: needs root (or CAP_SETUID and CAP_SETGID)");
        try (ServerSocket server = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            List<String> command = new ArrayList<>(SetsidProcessLauncher.asUser(61005));
            command.addAll(List.of("python3", "-c", "import socket, sys, time\n"
                    + "s = socket.socket(socket.AF_INET)\ns.connect(('127.0.0.1', " + server.getLocalPort() + "))\n"
                    + "print(s.getsockname()[1], flush=True)\ntime.sleep(30)"));
            Process python = new ProcessBuilder(command).redirectErrorStream(true).start();
            try (Socket accepted = server.accept();
                    BufferedReader out = new BufferedReader(new InputStreamReader(python.getInputStream()))) {
                int clientPort = Integer.parseInt(out.readLine().trim());
                assertThat(accepted.getPort()).isEqualTo(clientPort);
                assertThat(SocketOwners.PROC_NET.uidOf(new InetSocketAddress("127.0.0.1", clientPort),
                        (InetSocketAddress) accepted.getLocalSocketAddress())).hasValue(61005);
            } finally {
                python.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void anAddressIsWrittenAsTheTablesWriteIt() {
        Assumptions.assumeTrue(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN, "the tables' words are in the host's byte order");
        InetSocketAddress a = new InetSocketAddress("127.0.0.1", 56001);
        assertThat(SocketOwners.hex(a, false)).isEqualTo("0100007F:DAC1");
        assertThat(SocketOwners.hex(a, true)).isEqualTo("0000000000000000FFFF00000100007F:DAC1");
        InetSocketAddress v6 = new InetSocketAddress("::1", 56001);
        assertThat(SocketOwners.hex(v6, true)).isEqualTo("00000000000000000000000001000000:DAC1");
        assertThat(SocketOwners.hex(v6, false)).as("no IPv6 socket is in tcp").isEqualTo("-");
    }

    @Test
    void theClientsLineInTheTablesIsTheLiveOneWithTheConnectionsAddressesNotAClosedOneOrAShortLine() throws Exception {
        Assumptions.assumeTrue(ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN, "the tables' words are in the host's byte order");
        String client = "00000000000000000000000001000000:C350"; // [::1]:50000
        String server = "00000000000000000000000001000000:DAC1"; // [::1]:56001
        String header = "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when"
                + " retrnsmt   uid  timeout inode\n";
        Path tcp = Files.writeString(work.resolve("tcp"), header);
        Path tcp6 = Files.writeString(work.resolve("tcp6"), header
                + "   0: " + server + " 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000 0 0 1001 1\n"
                + "   1: " + client + " " + server + " 06 00000000:00000000 03:00000F9E 00000000 61007 0 0 3\n"
                + "   2: " + client + " " + server + " 01 00000000:00000000 00:00000000 00000000 61005 0\n" // cut before its inode
                + "   3: " + client + " " + server + " 01 00000000:00000000 00:00000000 00000000 61003 0 4242 1 0 20 4 30 10 -1\n");
        InetSocketAddress from = new InetSocketAddress("::1", 50000);
        InetSocketAddress to = new InetSocketAddress("::1", 56001);
        assertThat(SocketOwners.find(List.of(tcp, tcp6), from, to)).hasValue(61003);
        assertThat(SocketOwners.find(List.of(tcp, tcp6), to, from)).as("the server's end is no client of it").isEmpty();
        assertThat(SocketOwners.find(List.of(work.resolve("no-such-table")), from, to)).isEmpty();
    }
}
