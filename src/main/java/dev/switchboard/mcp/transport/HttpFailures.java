package dev.switchboard.mcp.transport;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Turns what {@link java.net.http.HttpClient} throws or answers into classified {@link McpException}s. */
final class HttpFailures {

    private static final int BODY_EXCERPT_BYTES = 512;

    private HttpFailures() {
    }

    static McpException classify(Throwable error, URI uri) {
        Throwable t = unwrap(error);
        if (t instanceof McpException mcp) {
            return mcp;
        }
        if (causedBy(t, UnknownHostException.class) || causedBy(t, UnresolvedAddressException.class)) {
            return new McpException(McpException.Kind.DNS, "cannot resolve host " + uri.getHost(), t);
        }
        if (t instanceof HttpTimeoutException) {
            return new McpException(McpException.Kind.TIMEOUT, "no HTTP answer from " + uri + " in time", t);
        }
        if (causedBy(t, ConnectException.class)) {
            return new McpException(McpException.Kind.CONNECT_REFUSED, "connection to " + uri + " refused"
                    + (t.getMessage() == null ? " (nothing listens on that port?)" : ": " + t.getMessage()), t);
        }
        if (t instanceof IOException) {
            return new McpException(McpException.Kind.CLOSED, "connection to " + uri + " failed: " + t.getMessage(), t);
        }
        return new McpException(McpException.Kind.PROTOCOL, "HTTP request to " + uri + " failed: " + t, t);
    }

    /** An unexpected status, with the start of the body so the user sees what the server said. */
    static McpException status(HttpResponse<InputStream> response) {
        String excerpt;
        try (InputStream body = response.body()) {
            excerpt = JsonRpcMessage.excerpt(new String(body.readNBytes(BODY_EXCERPT_BYTES), StandardCharsets.UTF_8));
        } catch (IOException e) {
            excerpt = "";
        }
        return McpException.httpStatus(response.statusCode(), "HTTP " + response.statusCode() + " from "
                + response.request().method() + " " + response.uri() + (excerpt.isEmpty() ? "" : ": " + excerpt));
    }

    static void discard(HttpResponse<InputStream> response) {
        try (InputStream body = response.body()) {
            body.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            // nothing useful in a body we do not read
        }
    }

    private static Throwable unwrap(Throwable error) {
        Throwable t = error;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }
}
