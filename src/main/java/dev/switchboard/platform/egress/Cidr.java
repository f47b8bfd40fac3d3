package dev.switchboard.platform.egress;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Pattern;

/** An IPv4 or IPv6 network written {@code address/prefix} (a lone address is a network of one). */
public record Cidr(byte[] network, int prefix) {

    private static final Pattern DOTTED_QUAD = Pattern.compile("^\\d{1,3}(\\.\\d{1,3}){3}$");

    /** {@code 10.0.0.0/8}, {@code 127.0.0.1}, {@code fd00::/8}, {@code ::1}; empty when it is none of these. */
    public static Optional<Cidr> parse(String text) {
        int slash = text.indexOf('/');
        String address = slash < 0 ? text : text.substring(0, slash);
        Optional<InetAddress> parsed = literal(address);
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        int bits = parsed.get().getAddress().length * 8;
        int prefix = bits;
        if (slash >= 0) {
            String p = text.substring(slash + 1);
            if (!p.matches("\\d{1,3}") || Integer.parseInt(p) > bits) {
                return Optional.empty();
            }
            prefix = Integer.parseInt(p);
        }
        return Optional.of(new Cidr(masked(parsed.get().getAddress(), prefix), prefix));
    }

    public boolean contains(InetAddress address) {
        byte[] candidate = address.getAddress();
        if (candidate.length != network.length) {
            return false;
        }
        return Arrays.equals(masked(candidate, prefix), network);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Cidr c && c.prefix == prefix && Arrays.equals(c.network, network);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(network) * 31 + prefix;
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefix;
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException("a parsed network is always an address", e);
        }
    }

    /** Only plain dotted-quad IPv4 and IPv6 literals: never a name (no lookup), never an odd IPv4 spelling. */
    private static Optional<InetAddress> literal(String text) {
        try {
            if (DOTTED_QUAD.matcher(text).matches()) {
                for (String part : text.split("\\.")) {
                    if (Integer.parseInt(part) > 255 || part.length() > 1 && part.startsWith("0")) {
                        return Optional.empty();
                    }
                }
                return Optional.of(InetAddress.getByName(text));
            }
            if (text.contains(":") && text.matches("^[0-9a-fA-F:.]+$")) {
                return Optional.of(InetAddress.getByName(text));
            }
        } catch (java.net.UnknownHostException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private static byte[] masked(byte[] address, int prefix) {
        byte[] out = address.clone();
        for (int i = 0; i < out.length; i++) {
            int keep = Math.max(0, Math.min(8, prefix - 8 * i));
            out[i] = (byte) (out[i] & (0xFF00 >> keep));
        }
        return out;
    }
}
