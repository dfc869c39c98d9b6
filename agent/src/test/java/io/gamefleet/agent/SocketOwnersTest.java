package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The owner of a loopback connection's client socket, from the kernel's own tables (/proc/net/tcp, tcp6). */
class SocketOwnersTest {
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
    }
}
