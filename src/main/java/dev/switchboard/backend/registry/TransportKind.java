package dev.switchboard.backend.registry;

import dev.switchboard.mcp.client.BackendSpec;

import java.util.Arrays;
import java.util.Optional;

/**
 * The MCP client system's transport types with their wire names ({@code sse}, {@code streamableHttp}, {@code stdio}), and
 * {@code builtin}: a server Switchboard itself serves inside its JVM (its {@code command} names which one).
 */
public enum TransportKind {
    SSE("sse", BackendSpec.TransportType.SSE),
    STREAMABLE_HTTP("streamableHttp", BackendSpec.TransportType.STREAMABLE_HTTP),
    STDIO("stdio", BackendSpec.TransportType.STDIO),
    BUILTIN("builtin", BackendSpec.TransportType.IN_PROCESS);

    private final String wireName;
    private final BackendSpec.TransportType transport;

    TransportKind(String wireName, BackendSpec.TransportType transport) {
        this.wireName = wireName;
        this.transport = transport;
    }

    public String wireName() {
        return wireName;
    }

    public BackendSpec.TransportType transport() {
        return transport;
    }

    public static Optional<TransportKind> fromWireName(String name) {
        return Arrays.stream(values()).filter(k -> k.wireName.equals(name)).findFirst();
    }

    /** The MCP client system's rule when no type is given: a command means stdio, a URL ending in /mcp streamable HTTP, other URLs SSE. */
    public static TransportKind infer(String command, String baseUrl) {
        if (command != null && !command.isBlank()) {
            return STDIO;
        }
        String path = baseUrl == null ? "" : baseUrl.replaceAll("[?#].*$", "").replaceAll("/+$", "");
        return path.endsWith("/mcp") ? STREAMABLE_HTTP : SSE;
    }
}
