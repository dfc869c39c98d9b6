package io.gamefleet.agent;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalInt;

/**
 * Who called: the uid that owns the client end of a loopback TCP connection to the GSDK endpoint, as
 * the kernel lists it in {@code /proc/net/tcp} (and {@code tcp6}, where a client's IPv6 socket shows
 * 127.0.0.1 as {@code ::ffff:127.0.0.1}). The client's socket is the line whose local address is the
 * connection's remote one and whose remote address is the endpoint's. A socket's uid is its creator's
 * and never changes; a closed one (TIME_WAIT, inode 0) owns nothing.
 */
interface SocketOwners {
    /** The uid of the socket at {@code client} connected to {@code server}, if there is one. */
    OptionalInt uidOf(InetSocketAddress client, InetSocketAddress server);

    /** The kernel's tables of this network namespace (Linux). */
    SocketOwners PROC_NET = (client, server) -> find(List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6")), client, server);

    static OptionalInt find(List<Path> tables, InetSocketAddress client, InetSocketAddress server) {
        for (Path table : tables) {
            boolean v6 = table.getFileName().toString().endsWith("6");
            String local = hex(client, v6);
            String remote = hex(server, v6);
            try (BufferedReader in = Files.newBufferedReader(table)) {
                in.readLine(); // the header
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 9 && f[1].equals(local) && f[2].equals(remote) && !f[9].equals("0")) {
                        return OptionalInt.of(Integer.parseUnsignedInt(f[7]));
                    }
                }
            } catch (IOException e) {
                // no IPv6 in this kernel: nothing to find there
            }
        }
        return OptionalInt.empty();
    }

    /**
     * An address as the tables print it: each 32-bit word of the address in the host's byte order,
     * in hex, then the port; in {@code tcp6} an IPv4 address is the IPv4-mapped IPv6 one.
     */
    static String hex(InetSocketAddress address, boolean v6) {
        byte[] ip = address.getAddress().getAddress();
        if (v6 && ip.length == 4) {
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            System.arraycopy(ip, 0, mapped, 12, 4);
            ip = mapped;
        } else if (!v6 && ip.length == 16) {
            return "-"; // an IPv6 address is in tcp6 only
        }
        ByteBuffer words = ByteBuffer.wrap(ip).order(ByteOrder.nativeOrder());
        StringBuilder out = new StringBuilder();
        while (words.hasRemaining()) {
            out.append(HexFormat.of().withUpperCase().toHexDigits(words.getInt()));
        }
        return out.append(':').append(String.format("%04X", address.getPort())).toString();
    }
}
