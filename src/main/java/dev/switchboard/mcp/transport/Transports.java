package dev.switchboard.mcp.transport;

import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.client.BackendSpec;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.concurrent.Executor;

/** Picks and configures the transport a {@link BackendSpec} asks for. */
public final class Transports {

    private Transports() {
    }

    public static McpTransport forSpec(BackendSpec spec, BackendHttpClient http, Executor executor) throws McpException {
        return switch (spec.type()) {
            case STDIO -> {
                if (spec.command() == null || spec.command().isBlank()) {
                    throw new McpException(McpException.Kind.CONNECT_REFUSED, "stdio backend has no command");
                }
                yield new StdioTransport(spec, executor);
            }
            case STREAMABLE_HTTP -> {
                URI uri = httpUri(spec.url());
                yield new StreamableHttpTransport(uri, ExtraHeaders.validated(spec.headers(), uri),
                        http.restrictedTo(spec.addressGuard()), executor);
            }
            case SSE -> {
                URI uri = httpUri(spec.url());
                yield new LegacySseTransport(uri, ExtraHeaders.validated(spec.headers(), uri),
                        http.restrictedTo(spec.addressGuard()), executor);
            }
            case IN_PROCESS -> {
                if (spec.inProcess() == null) {
                    throw new McpException(McpException.Kind.CONNECT_REFUSED, "in-process backend has no server");
                }
                yield new InProcessTransport(spec.inProcess(), executor);
            }
        };
    }

    private static URI httpUri(String url) throws McpException {
        try {
            URI uri = new URI(url == null ? "" : url);
            if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
                throw new McpException(McpException.Kind.PROTOCOL, "not an http(s) URL: '" + url + "'");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new McpException(McpException.Kind.PROTOCOL, "malformed URL '" + url + "': " + e.getMessage(), e);
        }
    }
}
