package dev.switchboard.mcp.transport;

import java.util.Optional;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import dev.switchboard.platform.egress.AddressNotAllowedException;

import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ConnectionRequestTimeoutException;
import org.apache.hc.core5.http.HttpEntity;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Turns what {@link BackendHttpClient} throws or answers into classified {@link McpException}s. */
final class HttpFailures {

    private static final int BODY_EXCERPT_BYTES = 512;

    private HttpFailures() {
    }

    static McpException classify(Throwable error, URI uri) {
        Throwable t = unwrap(error);
        if (t instanceof McpException mcp) {
            return mcp;
        }
        AddressNotAllowedException denied = cause(t, AddressNotAllowedException.class);
        if (denied != null) {
            return McpException.ownWords(McpException.Kind.ADDRESS_DENIED, denied.getMessage(), t);
        }
        if (causedBy(t, UnknownHostException.class) || causedBy(t, UnresolvedAddressException.class)) {
            return new McpException(McpException.Kind.DNS, "cannot resolve host " + uri.getHost(), t);
        }
        if (causedBy(t, ClosedByInterruptException.class) || Thread.currentThread().isInterrupted()) {
            // the caller was interrupted (its request cancelled): the exchange ended with its connection
            return new McpException(McpException.Kind.CANCELLED, "exchange with " + uri + " cancelled: caller interrupted", t);
        }
        if (t instanceof ConnectTimeoutException) {
            return new McpException(McpException.Kind.TIMEOUT, "no connection to " + uri + " in time", t);
        }
        if (t instanceof ConnectionRequestTimeoutException) {
            return new McpException(McpException.Kind.TIMEOUT, "no free connection to " + uri + " in time", t);
        }
        if (t instanceof SocketTimeoutException) {
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
    static McpException status(ClassicHttpResponse response, String method, URI uri) {
        String excerpt = "";
        HttpEntity entity = response.getEntity();
        if (entity != null) {
            try (InputStream body = entity.getContent()) {
                excerpt = JsonRpcMessage.excerpt(new String(body.readNBytes(BODY_EXCERPT_BYTES), StandardCharsets.UTF_8));
            } catch (IOException e) {
                // the status says enough
            }
        }
        discard(response);
        if (response.getCode() == 401) {
            Optional<McpException> oauth = BearerChallenge.of(response.getHeaders("WWW-Authenticate")).map(challenge ->
                    new McpException(McpException.Kind.AUTHORIZATION_REQUIRED, "HTTP 401 from " + method + " " + uri
                            + ": the server requires an OAuth access token; its protected resource metadata is at "
                            + challenge.resourceMetadata(), null, 401, 0, challenge.asData()));
            if (oauth.isPresent()) {
                return oauth.get();
            }
        }
        return McpException.httpStatus(response.getCode(), "HTTP " + response.getCode() + " from "
                + method + " " + uri + (excerpt.isEmpty() ? "" : ": " + excerpt));
    }

    /** Reads what is left of the body (so the connection can serve the next exchange) and releases the response. */
    static void discard(ClassicHttpResponse response) {
        try {
            response.close();
        } catch (IOException e) {
            // nothing useful in a body we do not read; a broken connection is not pooled again
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
        return cause(t, type) != null;
    }

    private static <T extends Throwable> T cause(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }
}
