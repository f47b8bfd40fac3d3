package dev.switchboard.gateway.ws;

import dev.switchboard.gateway.GatewayConfiguration;
import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.gateway.GatewayRouters;
import dev.switchboard.gateway.GatewayThreads;
import dev.switchboard.gateway.SharedBackends;
import dev.switchboard.gateway.ClientSessions;
import dev.switchboard.sql.dialect.DialectMessageLimit;
import dev.switchboard.sql.dialect.QueryDialectHandler;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.websocket.CloseReason;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnError;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpoint;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.io.StringReader;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * {@code /mcp} over WebSocket: one MCP session per socket, served by the same router as Streamable HTTP. Each text
 * message is one JSON object and picks its dialect itself: {@code "jsonrpc"} is MCP, {@code "type"} is the query dialect's
 * dialect (handed to the {@link QueryDialectHandler} bean when one is deployed), anything else is refused with a
 * JSON-RPC error; the socket stays open either way. A dialect message may be as large as the query service's
 * message limit, every other one as large as the gateway's body limit ({@link SocketMessageLimits}).
 */
// a bean, so Liberty injects it; one instance per socket
@Dependent
@ServerEndpoint(value = "/mcp", subprotocols = "mcp", configurator = McpSocketConfigurator.class)
public class McpSocket {

    private static final Logger LOG = Logger.getLogger(McpSocket.class.getName());
    private static final String CONNECTION = "switchboard.connection";
    private static final String DIALECT_CHANNEL = "switchboard.dialect";
    private static final String LIMITS = "switchboard.limits";

    @Inject
    ClientSessions clients;

    @Inject
    SharedBackends sharedBackends;

    @Inject
    GatewayRouters routers;

    @Inject
    GatewayConfiguration configuration;

    @Inject
    GatewayThreads threads;

    @Inject
    Instance<QueryDialectHandler> dialect;

    /** Read here rather than from the dialect's bean, which would open the query database with every socket. */
    @Inject
    @ConfigProperty(name = DialectMessageLimit.PROPERTY, defaultValue = DialectMessageLimit.DEFAULT_BYTES)
    long dialectMaxMessageBytes;

    @OnOpen
    public void open(Session session, EndpointConfig config) {
        SocketMessageLimits limits = new SocketMessageLimits(configuration.settings().maxBodyBytes(), dialectMaxMessageBytes);
        session.setMaxTextMessageBufferSize(limits.containerMaxMessage());
        session.getUserProperties().put(LIMITS, limits);
        SocketSender sender = new SocketSender(session);
        HandshakeUser caller = config.getUserProperties().get(McpSocketConfigurator.CALLER) instanceof HandshakeUser c ? c : null;
        session.getUserProperties().put(CONNECTION, new SocketConnection(sender, caller, clients, sharedBackends,
                routers, threads.executor(), configuration.settings()));
    }

    @OnMessage
    public void message(Session session, String text) {
        SocketConnection connection = (SocketConnection) session.getUserProperties().get(CONNECTION);
        Optional<JsonObject> refusal = ((SocketMessageLimits) session.getUserProperties().get(LIMITS)).refusal(text);
        if (refusal.isPresent()) {
            connection.sender().send(refusal.get());
            return;
        }
        JsonValue value;
        try (var reader = JSON.createReader(new StringReader(text))) {
            value = reader.readValue();
        } catch (JsonException e) {
            connection.sender().send(GatewayErrors.error(JsonValue.NULL, GatewayErrors.PARSE_ERROR,
                    "Parse error: " + e.getMessage(), null).json());
            return;
        }
        if (value instanceof JsonObject object && object.containsKey("jsonrpc")) {
            connection.onMcp(object);
        } else if (value instanceof JsonObject object && object.containsKey("type")) {
            onDialect(session, connection, object);
        } else {
            connection.sender().send(GatewayErrors.error(JsonValue.NULL, GatewayErrors.INVALID_REQUEST,
                    "Invalid Request: expected one JSON-RPC 2.0 object (batches are not supported) or a message with a type",
                    null).json());
        }
    }

    @OnClose
    public void close(Session session, CloseReason reason) {
        if (session.getUserProperties().get(CONNECTION) instanceof SocketConnection connection) {
            connection.close();
        }
        if (session.getUserProperties().get(DIALECT_CHANNEL) instanceof SocketDialectChannel channel && dialect.isResolvable()) {
            dialect.get().onClose(channel);
        }
    }

    @OnError
    public void error(Session session, Throwable error) {
        LOG.log(Level.FINE, "WebSocket /mcp error", error);
    }

    private void onDialect(Session session, SocketConnection connection, JsonObject message) {
        if (!dialect.isResolvable()) {
            connection.sender().send(JSON.createObjectBuilder().add("type", "error").add("error", JSON.createObjectBuilder()
                    .add("code", GatewayErrors.METHOD_NOT_FOUND)
                    .add("message", "This server does not speak the query dialect on /mcp")).build());
            return;
        }
        SocketDialectChannel channel = (SocketDialectChannel) session.getUserProperties()
                .computeIfAbsent(DIALECT_CHANNEL, key -> new SocketDialectChannel(session, connection.sender()));
        dialect.get().onMessage(message, channel);
    }
}
