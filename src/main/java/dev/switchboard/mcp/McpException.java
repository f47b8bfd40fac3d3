package dev.switchboard.mcp;

import jakarta.json.JsonValue;

/**
 * A failure talking to an MCP peer, classified so callers can tell the user what went wrong
 * (DNS, refused, timeout, HTTP status, protocol) without parsing messages.
 */
public class McpException extends Exception {

    public enum Kind {
        /** Host name did not resolve. */
        DNS,
        /** TCP connection refused or reset before any answer, or the process could not start. */
        CONNECT_REFUSED,
        /**
         * Not attempted: the destination is an internal address the backend may not reach (see
         * {@code AddressGuard}); the message says which address and why, and nothing else.
         */
        ADDRESS_DENIED,
        /** No answer within the deadline. */
        TIMEOUT,
        /** The HTTP peer answered with an unexpected status; see {@link #httpStatus()}. */
        HTTP_STATUS,
        /**
         * The HTTP peer answered 401 naming its OAuth protected resource metadata (RFC 9728): it wants an OAuth
         * access token; {@link #rpcData()} holds {@code resourceMetadata} (and {@code scope} when named).
         */
        AUTHORIZATION_REQUIRED,
        /** The peer answered something that is not valid MCP / JSON-RPC. */
        PROTOCOL,
        /** The peer answered with a JSON-RPC error object; see {@link #rpcCode()}. */
        RPC_ERROR,
        /** The connection closed (process exited, stream ended) while the call was pending. */
        CLOSED,
        /** The caller cancelled the request. */
        CANCELLED
    }

    private final Kind kind;
    private final int httpStatus;
    private final int rpcCode;
    private final transient JsonValue rpcData;
    private final boolean ownWords;

    public McpException(Kind kind, String message) {
        this(kind, message, null, 0, 0, null);
    }

    public McpException(Kind kind, String message, Throwable cause) {
        this(kind, message, cause, 0, 0, null);
    }

    public McpException(Kind kind, String message, Throwable cause, int httpStatus, int rpcCode, JsonValue rpcData) {
        this(kind, message, cause, httpStatus, rpcCode, rpcData, false);
    }

    private McpException(Kind kind, String message, Throwable cause, int httpStatus, int rpcCode, JsonValue rpcData,
                         boolean ownWords) {
        super(message, cause);
        this.kind = kind;
        this.httpStatus = httpStatus;
        this.rpcCode = rpcCode;
        this.rpcData = rpcData;
        this.ownWords = ownWords;
    }

    /**
     * A failure decided here, before or instead of talking to the backend (an address refused, a breaker open), whose
     * message holds nothing the backend said: anyone may read it.
     */
    public static McpException ownWords(Kind kind, String message, Throwable cause) {
        return new McpException(kind, message, cause, 0, 0, null, true);
    }

    public static McpException httpStatus(int status, String message) {
        return new McpException(Kind.HTTP_STATUS, message, null, status, 0, null);
    }

    public static McpException rpcError(int code, String message, JsonValue data) {
        return new McpException(Kind.RPC_ERROR, message, null, 0, code, data);
    }

    public Kind kind() {
        return kind;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public int rpcCode() {
        return rpcCode;
    }

    public JsonValue rpcData() {
        return rpcData;
    }

    /** Whether the message is Switchboard's own words only (see {@link #ownWords}). */
    public boolean isOwnWords() {
        return ownWords;
    }
}
