package dev.switchboard.mcp;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * A value mirrored into an HTTP header by 2026-07-28 ({@code Mcp-Name}, {@code Mcp-Param-*}): plain visible ASCII
 * as it is, anything else as {@code =?base64?<UTF-8 in Base64>?=}. Surrounding whitespace is not part of a header
 * value (RFC 9110), so it is stripped before decoding.
 */
public final class HeaderValue {

    private static final String PREFIX = "=?base64?";
    private static final String SUFFIX = "?=";

    private HeaderValue() {
    }

    /** The header a value travels in: as it is when it is visible ASCII without surrounding spaces, else encoded. */
    public static String encode(String value) {
        boolean plain = !value.isEmpty() && value.strip().equals(value) && !value.startsWith(PREFIX)
                && value.chars().allMatch(c -> c >= 0x20 && c <= 0x7e);
        return plain ? value : PREFIX + Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)) + SUFFIX;
    }

    /** The value the header stands for; empty when it is an encoded value that does not decode to UTF-8 text. */
    public static Optional<String> decode(String header) {
        String value = header.strip();
        if (!value.startsWith(PREFIX) || !value.endsWith(SUFFIX) || value.length() < PREFIX.length() + SUFFIX.length()) {
            return Optional.of(value);
        }
        String encoded = value.substring(PREFIX.length(), value.length() - SUFFIX.length());
        try {
            byte[] bytes = Base64.getDecoder().decode(encoded);
            return Optional.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString());
        } catch (IllegalArgumentException | CharacterCodingException e) {
            return Optional.empty();
        }
    }
}
