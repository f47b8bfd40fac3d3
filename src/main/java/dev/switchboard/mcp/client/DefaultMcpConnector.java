package dev.switchboard.mcp.client;

import dev.switchboard.mcp.JsonRpcPeer;
import dev.switchboard.mcp.McpErrorCodes;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.ModernProtocol;
import dev.switchboard.mcp.ProtocolVersions;
import dev.switchboard.mcp.TrafficListener;
import dev.switchboard.mcp.transport.BackendHttpClient;
import dev.switchboard.mcp.transport.McpTransport;
import dev.switchboard.mcp.transport.StreamableHttpTransport;
import dev.switchboard.mcp.transport.Transports;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Connects to a backend over the transport its {@link BackendSpec} names and runs the MCP handshake:
 * {@code initialize} offering {@value ProtocolVersions#LATEST}, version check, {@code notifications/initialized}. A
 * Streamable HTTP backend that refuses {@code initialize} as a server of MCP 2026-07-28 would (an unsupported version,
 * an unknown method) is asked {@code server/discover}, and spoken to statelessly when it serves that version
 * ({@link StatelessMcpClient}).
 */
public final class DefaultMcpConnector implements McpConnector, AutoCloseable {

    public static final String CLIENT_NAME = "switchboard";
    public static final String CLIENT_VERSION = "0.1.0";
    private static final Duration TCP_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** HTTP connections to one backend (host and port) at once: calls in flight plus one per session's GET stream. */
    public static final int DEFAULT_MAX_CONNECTIONS_PER_BACKEND = 1024;
    public static final int DEFAULT_MAX_CONNECTIONS = 4096;

    private final ExecutorService executor;
    private final ScheduledExecutorService scheduler;
    private final TrafficListener traffic;
    private final BackendHttpClient http;

    public DefaultMcpConnector(ExecutorService executor, ScheduledExecutorService scheduler) {
        this(executor, scheduler, TrafficListener.NONE);
    }

    public DefaultMcpConnector(ExecutorService executor, ScheduledExecutorService scheduler, TrafficListener traffic) {
        this(executor, scheduler, traffic, DEFAULT_MAX_CONNECTIONS_PER_BACKEND, DEFAULT_MAX_CONNECTIONS);
    }

    /**
     * @param executor  runs transport readers (one per stdio stream / open SSE stream) and listener callbacks
     * @param scheduler fires request deadlines
     * @param traffic   sees every message of every connection made here
     * @param maxConnectionsPerBackend HTTP connections to one backend at once (a call waits for one beyond that)
     * @param maxConnections HTTP connections to all backends at once
     */
    public DefaultMcpConnector(ExecutorService executor, ScheduledExecutorService scheduler, TrafficListener traffic,
                               int maxConnectionsPerBackend, int maxConnections) {
        this.executor = executor;
        this.scheduler = scheduler;
        this.traffic = traffic;
        this.http = new BackendHttpClient(TCP_CONNECT_TIMEOUT, maxConnectionsPerBackend, maxConnections, scheduler);
    }

    @Override
    public McpClient connect(BackendSpec spec, Duration timeout) throws McpException {
        long deadline = System.nanoTime() + timeout.toNanos();
        McpTransport transport = Transports.forSpec(spec, http, executor);
        JsonRpcPeer peer = new JsonRpcPeer(transport, executor, scheduler, traffic);
        try {
            peer.start(timeout);
            JsonObject result;
            try {
                result = peer.request("initialize", initializeParams(), remaining(deadline), null);
            } catch (McpException refused) {
                if (transport instanceof StreamableHttpTransport http && mayBeStatelessEra(refused)) {
                    http.statelessEra(ModernProtocol.VERSION);
                    Optional<McpClient> stateless = StatelessMcpClient.discover(peer, remaining(deadline));
                    if (stateless.isPresent()) {
                        return stateless.get();
                    }
                }
                throw refused;
            }
            InitializeResult initialized = toInitializeResult(result);
            transport.initialized(initialized.protocolVersion());
            peer.notify("notifications/initialized", null);
            return new DefaultMcpClient(peer, initialized);
        } catch (McpException | RuntimeException e) {
            peer.close();
            throw e;
        }
    }

    /**
     * Whether a refused {@code initialize} may come from a server of MCP 2026-07-28, which has no handshake: such a
     * server answers it with an unsupported version ({@code -32022}, HTTP 400) or as an unknown method. Only then is
     * {@code server/discover} asked, so a session-era backend costs no extra request.
     */
    private static boolean mayBeStatelessEra(McpException refused) {
        return switch (refused.kind()) {
            case HTTP_STATUS -> refused.httpStatus() == 400 || refused.httpStatus() == 404 || refused.httpStatus() == 405;
            case RPC_ERROR -> refused.rpcCode() == McpErrorCodes.UNSUPPORTED_PROTOCOL_VERSION || refused.rpcCode() == -32601;
            default -> false;
        };
    }

    /** Closes the HTTP connection pool; the connections made here must be closed first. */
    @Override
    public void close() {
        http.close();
    }

    /**
     * Offered so a gateway can hand the backend's requests to its own clients: every kind 2025-11-25 defines, since
     * one pooled session serves many clients; a request its client cannot handle is refused per request
     * ({@code gateway.ClientRequests#lacks}). A request made outside a call that has a handler gets "method not found"
     * (roots: an empty list), see JsonRpcPeer.
     */
    static final JsonObject CLIENT_CAPABILITIES = JSON.createObjectBuilder().add("roots", JsonValue.EMPTY_JSON_OBJECT)
            .add("sampling", JSON.createObjectBuilder().add("tools", JsonValue.EMPTY_JSON_OBJECT).add("context", JsonValue.EMPTY_JSON_OBJECT))
            .add("elicitation", JSON.createObjectBuilder().add("form", JsonValue.EMPTY_JSON_OBJECT).add("url", JsonValue.EMPTY_JSON_OBJECT))
            .build();

    private static JsonObject initializeParams() {
        return JSON.createObjectBuilder()
                .add("protocolVersion", ProtocolVersions.LATEST)
                .add("capabilities", CLIENT_CAPABILITIES)
                .add("clientInfo", JSON.createObjectBuilder().add("name", CLIENT_NAME).add("version", CLIENT_VERSION))
                .build();
    }

    private static InitializeResult toInitializeResult(JsonObject result) throws McpException {
        String version = result.get("protocolVersion") instanceof JsonString s ? s.getString() : null;
        if (!ProtocolVersions.isSupported(version)) {
            throw new McpException(McpException.Kind.PROTOCOL, "backend answered protocol version '" + version
                    + "'; this client supports " + String.join(", ", ProtocolVersions.SUPPORTED));
        }
        JsonObject serverInfo = result.get("serverInfo") instanceof JsonObject o ? o : JsonValue.EMPTY_JSON_OBJECT;
        JsonObject capabilities = result.get("capabilities") instanceof JsonObject o ? o : JsonValue.EMPTY_JSON_OBJECT;
        String instructions = result.get("instructions") instanceof JsonString s ? s.getString() : null;
        return new InitializeResult(version, serverInfo, capabilities, instructions, result);
    }

    private static Duration remaining(long deadlineNanos) throws McpException {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            throw new McpException(McpException.Kind.TIMEOUT, "handshake deadline passed while opening the connection");
        }
        return Duration.ofNanos(left);
    }
}
