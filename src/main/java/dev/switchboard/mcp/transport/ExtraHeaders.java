package dev.switchboard.mcp.transport;

import dev.switchboard.mcp.McpException;

import org.apache.hc.core5.http.HttpRequest;

import java.net.URI;
import java.util.Map;

/**
 * The backend's configured extra headers, checked once so a bad name fails the connect, not every request. The check
 * is the JDK client's header rules (token names, no line breaks, none of the headers the client itself manages).
 */
final class ExtraHeaders {

    private final Map<String, String> extra;

    private ExtraHeaders(Map<String, String> extra) {
        this.extra = extra;
    }

    static ExtraHeaders validated(Map<String, String> extra, URI uri) throws McpException {
        try {
            java.net.http.HttpRequest.Builder probe = java.net.http.HttpRequest.newBuilder(uri);
            extra.forEach(probe::header);
        } catch (IllegalArgumentException e) {
            throw new McpException(McpException.Kind.PROTOCOL, "invalid header configured for " + uri + ": " + e.getMessage(), e);
        }
        return new ExtraHeaders(extra);
    }

    void applyTo(HttpRequest request) {
        extra.forEach(request::addHeader);
    }
}
