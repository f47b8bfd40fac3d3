package dev.switchboard.platform.egress;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where the connections of one backend may go. {@link #UNRESTRICTED} for servers an admin registered (they may reach
 * internal services on purpose); {@link #denyInternal} for servers a user registered: every address the host resolves
 * to must be public or on the tenant's allowlist, and the connection then goes to exactly the addresses checked, so a
 * name that resolves differently a moment later (DNS rebinding) changes nothing.
 * <p>
 * Equal guards may share pooled HTTP connections; a connection opened under one guard is never handed to a request
 * under another (it is the connection's pool state).
 */
public final class AddressGuard {

    public static final AddressGuard UNRESTRICTED = new AddressGuard(true, List.of());
    private static final Pattern IPV6_LITERAL = Pattern.compile("^[0-9a-f:.]*:[0-9a-f:.]*$");

    /** Resolves a host name to its addresses (the HTTP client's resolver; a fixed table in tests). */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    private final boolean unrestricted;
    private final List<AllowedNetwork> allowed;

    private AddressGuard(boolean unrestricted, List<AllowedNetwork> allowed) {
        this.unrestricted = unrestricted;
        this.allowed = List.copyOf(allowed);
    }

    /** Internal addresses refused except those {@code allowed} names; public addresses allowed. */
    public static AddressGuard denyInternal(List<AllowedNetwork> allowed) {
        return new AddressGuard(false, allowed);
    }

    public boolean isUnrestricted() {
        return unrestricted;
    }

    /**
     * The addresses a connection to {@code host} may use, every one of them checked.
     *
     * @throws AddressNotAllowedException when {@code host} is, or resolves to, an internal address not on the
     *                                    allowlist (one such address is enough: a name that resolves to a public and
     *                                    an internal address is refused as a whole)
     * @throws UnknownHostException       when the name does not resolve
     */
    public List<InetAddress> resolve(String host, Resolver resolver) throws UnknownHostException, AddressNotAllowedException {
        String name = normalized(host);
        InetAddress[] addresses;
        if (Ipv4Spellings.looksNumeric(name)) {
            addresses = new InetAddress[]{Ipv4Spellings.parse(name).orElseThrow(() -> new AddressNotAllowedException(
                    "address not allowed: '" + host + "' is not a valid IPv4 address"))};
        } else if (IPV6_LITERAL.matcher(name).matches()) {
            // a literal is read, never looked up
            addresses = new InetAddress[]{InetAddress.getByName(name)};
        } else {
            addresses = resolver.resolve(name);
        }
        if (!unrestricted) {
            String written = host.strip().startsWith("[") ? host.strip().substring(1, host.strip().length() - 1) : host.strip();
            for (InetAddress address : addresses) {
                check(written, name, address);
            }
        }
        return List.of(addresses);
    }

    private void check(String written, String host, InetAddress address) throws AddressNotAllowedException {
        Optional<String> reason = InternalAddresses.reason(address);
        if (reason.isEmpty() || isAllowed(host, address)) {
            return;
        }
        String shown = address.getHostAddress();
        throw new AddressNotAllowedException("address not allowed: " + (shown.equals(written) ? shown : written + " (" + shown + ")")
                + " is " + reason.get() + "; an admin can allow it for this tenant");
    }

    private boolean isAllowed(String host, InetAddress address) {
        Optional<InetAddress> embedded = address instanceof Inet6Address v6
                ? InternalAddresses.embeddedIpv4(v6).map(InetAddress.class::cast) : Optional.empty();
        return allowed.stream().anyMatch(a -> a.allows(host, address) || embedded.filter(e -> a.allows(host, e)).isPresent());
    }

    /** Lower case, without IPv6 brackets or a final dot: the form names are compared and resolved in. */
    private static String normalized(String host) {
        String h = host.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AddressGuard g && g.unrestricted == unrestricted && g.allowed.equals(allowed);
    }

    @Override
    public int hashCode() {
        return Objects.hash(unrestricted, allowed);
    }

    @Override
    public String toString() {
        return unrestricted ? "unrestricted" : "internal denied except " + allowed.stream().map(AllowedNetwork::text).toList();
    }
}
