package dev.switchboard.platform.egress;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Which addresses are internal: the ones a server-side request must not reach on a user's say-so (loopback,
 * link-local with the cloud metadata services, private and shared networks, unspecified, multicast, broadcast,
 * reserved, this instance's own addresses), in IPv4 and IPv6, including IPv4 addresses carried inside IPv6 ones
 * (mapped {@code ::ffff:a.b.c.d}, compatible {@code ::a.b.c.d}, NAT64 {@code 64:ff9b::/96}, 6to4 {@code 2002::/16}).
 */
public final class InternalAddresses {

    private record Range(Cidr cidr, String reason) {
    }

    private static final List<Range> IPV4 = List.of(
            range("0.0.0.0/8", "unspecified (\"this network\")"),
            range("127.0.0.0/8", "loopback"),
            range("10.0.0.0/8", "private"),
            range("172.16.0.0/12", "private"),
            range("192.168.0.0/16", "private"),
            range("100.64.0.0/10", "carrier-grade NAT (shared address space)"),
            range("169.254.169.254/32", "link-local (the cloud metadata service)"),
            range("169.254.0.0/16", "link-local"),
            range("192.0.0.0/24", "reserved (IETF protocol assignments)"),
            range("198.18.0.0/15", "reserved (benchmarking)"),
            range("224.0.0.0/4", "multicast"),
            range("255.255.255.255/32", "broadcast"),
            range("240.0.0.0/4", "reserved"));

    private static final List<Range> IPV6 = List.of(
            range("::/128", "unspecified"),
            range("::1/128", "loopback"),
            range("fe80::/10", "link-local"),
            range("fec0::/10", "site-local (private)"),
            range("fc00::/7", "private (unique local)"),
            range("ff00::/8", "multicast"));

    private InternalAddresses() {
    }

    /**
     * Why {@code address} is internal, in words ("loopback", "private", ...); empty for an address on the public
     * internet.
     */
    public static Optional<String> reason(InetAddress address) {
        if (address instanceof Inet4Address) {
            return fixedRange(IPV4, address).or(() -> own(address));
        }
        Optional<Inet4Address> embedded = embeddedIpv4((Inet6Address) address);
        if (embedded.isPresent()) {
            return reason(embedded.get()).map(why -> why + " (" + embedded.get().getHostAddress() + " inside an IPv6 address)");
        }
        return fixedRange(IPV6, address).or(() -> own(address));
    }

    /**
     * The IPv4 address an IPv6 address stands for: IPv4-mapped and -compatible forms, NAT64's well-known prefix and
     * 6to4. Java turns most mapped literals into {@link Inet4Address} already; a resolver's answer may not.
     */
    static Optional<Inet4Address> embeddedIpv4(Inet6Address address) {
        byte[] b = address.getAddress();
        boolean zeros80 = allZero(b, 0, 10);
        if (zeros80 && (b[10] & 0xFF) == 0xFF && (b[11] & 0xFF) == 0xFF) {
            return Optional.of(v4(b, 12));
        }
        // ::a.b.c.d (deprecated IPv4-compatible); :: and ::1 are IPv6's own and classified as such
        if (zeros80 && b[10] == 0 && b[11] == 0 && !allZero(b, 12, 15)) {
            return Optional.of(v4(b, 12));
        }
        if ((b[0] & 0xFF) == 0x00 && (b[1] & 0xFF) == 0x64 && (b[2] & 0xFF) == 0xFF && (b[3] & 0xFF) == 0x9B
                && allZero(b, 4, 12)) {
            return Optional.of(v4(b, 12));
        }
        if ((b[0] & 0xFF) == 0x20 && (b[1] & 0xFF) == 0x02) {
            return Optional.of(v4(b, 2));
        }
        return Optional.empty();
    }

    private static Optional<String> fixedRange(List<Range> ranges, InetAddress address) {
        return ranges.stream().filter(r -> r.cidr().contains(address)).map(Range::reason).findFirst();
    }

    private static Optional<String> own(InetAddress address) {
        return OwnAddresses.contains(address) ? Optional.of("an address of this server itself") : Optional.empty();
    }

    private static boolean allZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static Inet4Address v4(byte[] b, int offset) {
        try {
            return (Inet4Address) InetAddress.getByAddress(Arrays.copyOfRange(b, offset, offset + 4));
        } catch (UnknownHostException e) {
            throw new IllegalStateException("four bytes are always an IPv4 address", e);
        }
    }

    private static Range range(String cidr, String reason) {
        return new Range(Cidr.parse(cidr).orElseThrow(), reason);
    }
}
