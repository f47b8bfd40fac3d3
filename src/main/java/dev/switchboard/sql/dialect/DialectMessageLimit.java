package dev.switchboard.sql.dialect;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The query dialect's largest message, which every transport of the dialect enforces itself (they see the bytes): the
 * setting they all read, and the answer to a larger message. Kept here, beside the dialect's interface, so the
 * {@code /mcp} WebSocket refuses such a message as the TCP transport does without starting the query service.
 */
public final class DialectMessageLimit {

    /** MicroProfile Config property of the limit in bytes ({@code QUERY_LIMIT_MAX_MESSAGE_BYTES}). */
    public static final String PROPERTY = "query.limit.max-message-bytes";
    /** The dialect's 10 MB. */
    public static final String DEFAULT_BYTES = "10485760";
    /** Invalid Request, the dialect's code for a message too large. */
    public static final int TOO_LARGE_CODE = -32600;

    private DialectMessageLimit() {
    }

    /**
     * The dialect's error response to a message over the limit. Its id is null: the message was not read, so its
     * id is unknown.
     */
    public static JsonObject tooLarge(long maxMessageBytes, long messageBytes) {
        return JSON.createObjectBuilder().add("type", "response").add("id", JsonValue.NULL)
                .add("error", JSON.createObjectBuilder().add("code", TOO_LARGE_CODE).add("message", "消息过大")
                        .add("data", JSON.createObjectBuilder().add("max_message_bytes", maxMessageBytes)
                                .add("message_bytes", messageBytes)))
                .build();
    }
}
