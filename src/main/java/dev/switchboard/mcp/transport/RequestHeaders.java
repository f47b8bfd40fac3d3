package dev.switchboard.mcp.transport;

import dev.switchboard.mcp.McpException;
import org.apache.hc.core5.http.HttpRequest;

import java.util.Map;

/**
 * Headers for the HTTP messages the current thread sends to backends while it runs one piece of work (the gateway's
 * {@code traceparent}). Messages are built on the caller's thread, so a thread-bound value reaches exactly the POSTs
 * made for that work; they are set after the backend's configured headers (one of the same name gives way: a
 * backend cannot be configured to receive a fixed trace).
 */
public final class RequestHeaders {

    /** Work that may fail like a backend call. */
    @FunctionalInterface
    public interface Work<T> {
        T run() throws McpException;
    }

    private static final ThreadLocal<Map<String, String>> CURRENT = new ThreadLocal<>();

    private RequestHeaders() {
    }

    /** Runs {@code work} with {@code headers} on the messages it sends, then restores what was there. */
    public static <T> T with(Map<String, String> headers, Work<T> work) throws McpException {
        Map<String, String> previous = CURRENT.get();
        CURRENT.set(Map.copyOf(headers));
        try {
            return work.run();
        } finally {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        }
    }

    static void applyTo(HttpRequest request) {
        Map<String, String> headers = CURRENT.get();
        if (headers != null) {
            headers.forEach(request::setHeader);
        }
    }
}
