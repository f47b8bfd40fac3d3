package dev.switchboard.gateway;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * The ids under which the gateway sends backends' requests to a client: {@code switchboard-<member>.<random>}. The
 * member part names the instance holding the waiting request, so an answer the client posts to another member of a
 * cluster can be sent on to it; the random part (16 bytes) makes ids unique across members and sessions and
 * unguessable, so nobody answers a request of another caller's session by counting.
 */
public final class ClientRequestIds {

    static final String PREFIX = "switchboard-";
    private static final char SEPARATOR = '.';
    private static final SecureRandom RANDOM = new SecureRandom();

    private ClientRequestIds() {
    }

    /** A new id of a request held by {@code member} (which must not contain a dot). */
    static String next(String member) {
        if (member.isEmpty() || member.indexOf(SEPARATOR) >= 0) {
            throw new IllegalArgumentException("a member's name in request ids must be non-empty without '.': " + member);
        }
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return PREFIX + member + SEPARATOR + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The member holding the request of this id; empty when the id is not of the gateway's form. */
    public static Optional<String> memberOf(String id) {
        if (id == null || !id.startsWith(PREFIX)) {
            return Optional.empty();
        }
        int separator = id.indexOf(SEPARATOR, PREFIX.length());
        if (separator <= PREFIX.length() || separator == id.length() - 1) {
            return Optional.empty();
        }
        return Optional.of(id.substring(PREFIX.length(), separator));
    }
}
