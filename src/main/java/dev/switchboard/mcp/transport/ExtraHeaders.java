package dev.switchboard.mcp.transport;

import dev.switchboard.mcp.McpException;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Map;

/** The backend's configured extra headers, checked once so a bad name fails the connect, not every request. */
final class ExtraHeaders {

    private final Map<String, String> extra;

    private ExtraHeaders(Map<String, String> extra) {
        this.extra = extra;
    }

    static ExtraHeaders validated(Map<String, String> extra, URI uri) throws McpException {
        try {
            HttpRequest.Builder probe = HttpRequest.newBuilder(uri);
            extra.forEach(probe::header);
        } catch (IllegalArgumentException e) {
            throw new McpException(McpException.Kind.PROTOCOL, "invalid header configured for " + uri + ": " + e.getMessage(), e);
        }
        return new ExtraHeaders(extra);
    }

    HttpRequest.Builder applyTo(HttpRequest.Builder builder) {
        extra.forEach(builder::header);
        return builder;
    }
}
