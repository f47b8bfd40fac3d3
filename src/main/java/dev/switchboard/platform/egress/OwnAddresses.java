package dev.switchboard.platform.egress;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The addresses of this machine's network interfaces, which count as internal whatever range they are in (a public
 * address of the instance reaches its own ports). Read again at most once a minute: interfaces rarely change.
 */
final class OwnAddresses {

    private static final Logger LOG = Logger.getLogger(OwnAddresses.class.getName());
    private static final long REFRESH_NANOS = 60_000_000_000L;

    private static volatile Set<InetAddress> addresses = Set.of();
    private static volatile long readAt = System.nanoTime() - 2 * REFRESH_NANOS;

    private OwnAddresses() {
    }

    static boolean contains(InetAddress address) {
        if (System.nanoTime() - readAt > REFRESH_NANOS) {
            addresses = read();
            readAt = System.nanoTime();
        }
        return addresses.contains(address);
    }

    private static Set<InetAddress> read() {
        Set<InetAddress> own = new HashSet<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                own.addAll(Collections.list(nic.getInetAddresses()));
            }
        } catch (SocketException e) {
            LOG.log(Level.WARNING, "cannot list this machine's network interfaces; keeping the addresses read before", e);
            return addresses;
        }
        return Set.copyOf(own);
    }
}
