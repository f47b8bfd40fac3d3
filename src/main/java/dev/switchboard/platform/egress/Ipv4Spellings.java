package dev.switchboard.platform.egress;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads a host written as an IPv4 number the way C's {@code inet_aton} (and so curl, browsers and most resolvers)
 * reads it: one to four parts, each decimal, octal (leading {@code 0}) or hexadecimal ({@code 0x}), the last part
 * filling the remaining bytes. {@code 2130706433}, {@code 0177.0.0.1}, {@code 0x7f.0.0.1} and {@code 127.1} are all
 * 127.0.0.1. Java reads some of these differently ({@code 0177.0.0.1} as 177.0.0.1), so a guarded connection decides
 * what such a host means here, checks that address and connects to exactly it.
 */
public final class Ipv4Spellings {

    /** A host whose every part looks like a number is a number: it must parse, or it is no address at all. */
    private static final Pattern NUMERIC = Pattern.compile("^([0-9]+|0[xX][0-9a-fA-F]*)(\\.([0-9]+|0[xX][0-9a-fA-F]*))*$");
    private static final Pattern PART = Pattern.compile("^(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$");

    private Ipv4Spellings() {
    }

    /**
     * Whether {@code host} is written as a number (every part decimal digits or {@code 0x} hex) rather than as a
     * name; such a host either {@link #parse parses} or names no address (a resolver would not look it up either).
     */
    public static boolean looksNumeric(String host) {
        return host != null && NUMERIC.matcher(host).matches();
    }

    /**
     * The address a numeric spelling stands for; empty when {@code host} is not a numeric spelling (a name, an IPv6
     * literal) or is out of range.
     */
    public static Optional<Inet4Address> parse(String host) {
        if (!looksNumeric(host)) {
            return Optional.empty();
        }
        String[] parts = host.split("\\.", -1);
        if (parts.length > 4) {
            return Optional.empty();
        }
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            if (!PART.matcher(parts[i]).matches() || parts[i].length() > 12) {
                return Optional.empty();
            }
            String p = parts[i];
            values[i] = p.startsWith("0x") || p.startsWith("0X") ? Long.parseLong(p.substring(2), 16)
                    : p.length() > 1 && p.startsWith("0") ? Long.parseLong(p.substring(1), 8)
                    : Long.parseLong(p);
        }
        long address = 0;
        for (int i = 0; i < values.length - 1; i++) {
            if (values[i] > 0xFF) {
                return Optional.empty();
            }
            address |= values[i] << (24 - 8 * i);
        }
        long last = values[values.length - 1];
        int lastBits = 32 - 8 * (values.length - 1);
        if (last >= (1L << lastBits)) {
            return Optional.empty();
        }
        address |= last;
        byte[] bytes = {(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address};
        try {
            return Optional.of((Inet4Address) InetAddress.getByAddress(bytes));
        } catch (UnknownHostException e) {
            throw new IllegalStateException("four bytes are always an IPv4 address", e);
        }
    }
}
