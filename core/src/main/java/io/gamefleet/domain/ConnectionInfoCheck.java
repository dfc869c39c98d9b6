package io.gamefleet.domain;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Whether a game server's ConnectionInfo names one of its instance's own addresses, with a port:
 * {@code host:port}, an IPv6 address in brackets ({@code [2600:1f18::5]:7777}), the host one of the
 * addresses EC2 gave for the instance (a DNS name in any case, an IPv6 address in any spelling).
 * Otherwise an instance's credentials could send players to a host of its choosing.
 */
final class ConnectionInfoCheck {
    private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");
    /** Only what is surely an IPv6 literal is parsed as an address: never a DNS lookup. */
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    private ConnectionInfoCheck() {}

    /** Why the ConnectionInfo is refused for this instance, if it is. */
    static Optional<String> refusal(String connectionInfo, GameServerInstance instance) {
        if (instance.addresses().isEmpty() || names(connectionInfo, instance.addresses())) {
            return Optional.empty(); // a record made before addresses were recorded: nothing to hold it to
        }
        return Optional.of("ConnectionInfo " + connectionInfo + " names no address of instance " + instance.instanceId()
                + ": it must be one of " + String.join(", ", instance.addresses())
                + " and a port (host:port, an IPv6 address as [address]:port); this stage's connectionInfoCheck is on,"
                + " and off allows other hosts (relays)");
    }

    static boolean names(String connectionInfo, List<String> addresses) {
        String host;
        String port;
        if (connectionInfo.startsWith("[")) {
            int end = connectionInfo.indexOf("]:");
            if (end < 0) {
                return false;
            }
            host = connectionInfo.substring(1, end);
            port = connectionInfo.substring(end + 2);
        } else {
            int colon = connectionInfo.lastIndexOf(':');
            if (colon < 0) {
                return false;
            }
            host = connectionInfo.substring(0, colon);
            port = connectionInfo.substring(colon + 1);
            if (host.contains(":")) { // an IPv6 address needs its brackets, or its last group reads as the port
                return false;
            }
        }
        if (!PORT.matcher(port).matches() || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
            return false;
        }
        return addresses.stream().anyMatch(a -> same(host, a));
    }

    private static boolean same(String host, String address) {
        if (host.toLowerCase(Locale.ROOT).equals(address.toLowerCase(Locale.ROOT))) {
            return true;
        }
        if (!IPV6.matcher(host).matches() || !IPV6.matcher(address).matches()) {
            return false;
        }
        try {
            return InetAddress.getByName(host).equals(InetAddress.getByName(address));
        } catch (UnknownHostException notAnAddress) {
            return false;
        }
    }
}
