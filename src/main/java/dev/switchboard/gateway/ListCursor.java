package dev.switchboard.gateway;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * Where the next page of an aggregated list ({@code tools/list}, {@code resources/list}, ...) starts: a backend name
 * and an index into that backend's items. Encoded opaquely; it names a position rather than a global offset, so a backend that was down for one page and is back
 * for the next does not shift what the client already saw.
 */
public record ListCursor(String backend, int index) {

    private static final String PREFIX = "sb1:";

    public String encode() {
        String plain = PREFIX + index + ":" + backend;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(plain.getBytes(StandardCharsets.UTF_8));
    }

    /** Empty when the text is not a cursor this gateway issued. */
    public static Optional<ListCursor> decode(String text) {
        try {
            String plain = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
            if (!plain.startsWith(PREFIX)) {
                return Optional.empty();
            }
            String rest = plain.substring(PREFIX.length());
            int colon = rest.indexOf(':');
            int index = Integer.parseInt(rest.substring(0, colon));
            String backend = rest.substring(colon + 1);
            return index < 0 || backend.isEmpty() ? Optional.empty() : Optional.of(new ListCursor(backend, index));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            return Optional.empty();
        }
    }

    /** True when the tool at (backend, index) comes at or after this position; backends are ordered by name. */
    public boolean isAtOrBefore(String toolBackend, int toolIndex) {
        int order = toolBackend.compareTo(backend);
        return order > 0 || (order == 0 && toolIndex >= index);
    }
}
