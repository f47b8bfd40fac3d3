package dev.switchboard.mcp;

/**
 * The error codes MCP itself defines. From 2026-07-28 the specification reserves -32020..-32099 for its own codes
 * and forbids any other use of them; -32000..-32019 stays implementation-defined (no receiver may read a meaning into
 * it, but -32002); codes of earlier revisions are never reused.
 */
public final class McpErrorCodes {

    /** 2026-07-28: the HTTP headers do not match the body, or a required one is missing or malformed. */
    public static final int HEADER_MISMATCH = -32020;
    /** 2026-07-28: serving the request needs a client capability the request did not declare. */
    public static final int MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;
    /** 2026-07-28: the request's protocol version is not served here. */
    public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;
    /** Up to 2025-11-25: resource not found (2026-07-28 answers -32602 instead). */
    public static final int LEGACY_RESOURCE_NOT_FOUND = -32002;

    private McpErrorCodes() {
    }

    /** Whether 2026-07-28 reserves the code for the specification's own use. */
    public static boolean reservedBySpecification(int code) {
        return code <= -32020 && code >= -32099;
    }
}
