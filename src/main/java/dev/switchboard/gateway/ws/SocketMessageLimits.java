package dev.switchboard.gateway.ws;

import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.platform.json.TopLevelKeys;
import dev.switchboard.sql.dialect.DialectMessageLimit;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.util.Optional;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * How large a message of one {@code /mcp} socket may be, by its dialect, in UTF-8 bytes: a message of the query dialect's
 * dialect up to the query service's limit (refused in the dialect's shape, as the TCP transport refuses it), every
 * other message up to the gateway's body limit (refused with a JSON-RPC error).
 */
final class SocketMessageLimits {

    /** Messages up to this many times the larger limit are read so they can be refused politely; larger ones close the socket. */
    private static final int READ_ABOVE_LIMIT = 2;
    /** A UTF-16 char is at most 3 UTF-8 bytes (a surrogate pair, two chars, is 4). */
    private static final int MAX_UTF8_PER_CHAR = 3;

    private final long mcpBytes;
    private final long dialectBytes;

    SocketMessageLimits(long mcpBytes, long dialectBytes) {
        if (mcpBytes < 1 || dialectBytes < 1) {
            throw new IllegalArgumentException("WebSocket message limits must be positive: " + mcpBytes + " bytes for MCP, "
                    + dialectBytes + " bytes for the query dialect (" + DialectMessageLimit.PROPERTY + ")");
        }
        this.mcpBytes = mcpBytes;
        this.dialectBytes = dialectBytes;
    }

    /** The container's largest text message; a larger one closes the socket with 1009. */
    int containerMaxMessage() {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(mcpBytes, dialectBytes) * READ_ABOVE_LIMIT);
    }

    /** The answer to a message over its dialect's limit; empty when it is within it. */
    Optional<JsonObject> refusal(String text) {
        long smaller = Math.min(mcpBytes, dialectBytes);
        if ((long) text.length() * MAX_UTF8_PER_CHAR <= smaller) {
            return Optional.empty();
        }
        long bytes = utf8Length(text);
        if (bytes <= smaller) {
            return Optional.empty();
        }
        if (isDialect(text)) {
            return bytes > dialectBytes ? Optional.of(DialectMessageLimit.tooLarge(dialectBytes, bytes)) : Optional.empty();
        }
        return bytes > mcpBytes ? Optional.of(GatewayErrors.error(JsonValue.NULL, GatewayErrors.INVALID_REQUEST,
                "Message too large: the limit is " + mcpBytes + " bytes", null).json()) : Optional.empty();
    }

    static long utf8Length(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /**
     * Whether the socket would hand this message to the dialect (an object with {@code "type"} and without
     * {@code "jsonrpc"}), found by streaming over its top-level keys rather than building it: the message may be
     * too large to be worth building. A message that stops being JSON is judged by the keys before that point.
     */
    static boolean isDialect(String text) {
        boolean[] typed = {false};
        boolean[] rpc = {false};
        TopLevelKeys.scan(JSON, text, (key, parser) -> {
            rpc[0] |= key.equals("jsonrpc");
            typed[0] |= key.equals("type");
            return !rpc[0];
        });
        return typed[0] && !rpc[0];
    }
}
