package dev.switchboard.platform.egress;

import java.net.InetAddress;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One entry of a tenant's allowlist of internal destinations: a network ({@code 10.1.0.0/16}, {@code fd00::/8}), one
 * address ({@code 10.1.2.3}) or one host name ({@code mcp.internal.example}, trusted with whatever it resolves to).
 *
 * @param text    the entry as an admin writes and reads it
 * @param network the network, or null for a host name
 * @param host    the host name in lower case without a trailing dot, or null for a network
 */
public record AllowedNetwork(String text, Cidr network, String host) {

    /** A DNS name with at least one letter: an all-numeric "name" would be an IPv4 spelling in disguise. */
    private static final Pattern HOST = Pattern.compile(
            "^(?=.*[a-z])[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$");

    /** The entry, or empty when it is neither a network, an address in plain notation, nor a host name. */
    public static Optional<AllowedNetwork> parse(String entry) {
        String text = entry == null ? "" : entry.strip().toLowerCase(Locale.ROOT);
        if (text.isEmpty() || text.length() > 253) {
            return Optional.empty();
        }
        Optional<Cidr> network = Cidr.parse(text.startsWith("[") && text.contains("]")
                ? text.substring(1, text.indexOf(']')) + text.substring(text.indexOf(']') + 1) : text);
        if (network.isPresent()) {
            return Optional.of(new AllowedNetwork(text, network.get(), null));
        }
        String host = text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
        if (!Ipv4Spellings.looksNumeric(host) && HOST.matcher(host).matches()) {
            return Optional.of(new AllowedNetwork(text, null, host));
        }
        return Optional.empty();
    }

    /** Whether this entry lets a connection for {@code host} go to {@code address}. */
    boolean allows(String host, InetAddress address) {
        return network != null ? network.contains(address) : this.host.equals(host);
    }
}
