package dev.switchboard.gateway.ws;

import dev.switchboard.gateway.AuditedRouter;
import dev.switchboard.gateway.GatewayBackend;
import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.gateway.GatewayRouters;
import dev.switchboard.gateway.GatewaySession;
import dev.switchboard.gateway.GatewaySettings;
import dev.switchboard.gateway.InitializeAnswer;
import dev.switchboard.gateway.McpRouter;
import dev.switchboard.gateway.RootsRelay;
import dev.switchboard.gateway.SessionLedger;
import dev.switchboard.gateway.SharedBackends;
import dev.switchboard.gateway.ClientCall;
import dev.switchboard.gateway.ClientReply;
import dev.switchboard.gateway.ClientSessions;
import dev.switchboard.gateway.ClientVersions;
import dev.switchboard.gateway.record.SessionRecorder;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.observability.TraceContext;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;

/**
 * The MCP side of one socket: its client session (made at the handshake for an authenticated caller, ended with
 * the socket, which cancels what is still in flight), and every JSON-RPC message the client sends on it. The socket
 * carries everything the session's server sends too: responses, progress, backends' requests and notifications.
 */
final class SocketConnection {

    /** The code the SDK servers use when a request needs a session the client does not have. */
    static final int AUTHENTICATION_REQUIRED = -32001;

    private final SocketSender sender;
    private final SocketCaller caller;
    private final ClientSessions clients;
    private final SharedBackends sharedBackends;
    private final GatewayRouters routers;
    private final ExecutorService executor;
    private final GatewaySettings settings;
    private final Consumer<JsonRpcMessage> toSocket;
    private volatile GatewaySession session;

    SocketConnection(SocketSender sender, SocketCaller caller, ClientSessions clients, SharedBackends sharedBackends,
                     GatewayRouters routers, ExecutorService executor, GatewaySettings settings) {
        this.sender = sender;
        this.caller = caller;
        this.clients = clients;
        this.sharedBackends = sharedBackends;
        this.routers = routers;
        this.executor = executor;
        this.settings = settings;
        this.toSocket = message -> sender.send(message.json());
    }

    SocketSender sender() {
        return sender;
    }

    void onMcp(JsonObject json) {
        JsonRpcMessage message = new JsonRpcMessage(json);
        if (caller == null) {
            if (message.kind() == JsonRpcMessage.Kind.REQUEST) {
                sender.send(GatewayErrors.error(message.id(), AUTHENTICATION_REQUIRED,
                        "authentication required: open the socket with Authorization: Bearer <token or API key>", null).json());
            }
            return;
        }
        GatewaySession current = liveSession();
        switch (message.kind()) {
            case REQUEST -> {
                if ("initialize".equals(message.method())) {
                    initialize(message, current);
                } else {
                    serve(message, current);
                }
            }
            case NOTIFICATION -> {
                if ("notifications/cancelled".equals(message.method()) && message.params().get("requestId") != null) {
                    current.cancel(message.params().get("requestId").toString());
                } else if (RootsRelay.ROOTS_CHANGED_METHOD.equals(message.method())) {
                    clients.rootsChanged(caller.subject(), sharedBackends.of(caller));
                }
            }
            case RESPONSE -> current.clientRequests().answer(message);
            case INVALID -> sender.send(GatewayErrors.error(JsonValue.NULL, GatewayErrors.INVALID_REQUEST,
                    "Invalid Request: not a JSON-RPC 2.0 request, notification or response", null).json());
        }
    }

    void close() {
        GatewaySession current = session;
        if (current != null) {
            clients.sessions().end(current.id(), current.subject(), SessionLedger.EndReason.CLOSED);
        }
    }

    /** The socket's session; a new one if the old one idled out while the socket stayed open. */
    private synchronized GatewaySession liveSession() {
        GatewaySession current = session;
        if (current == null || clients.sessions().find(current.id(), caller.subject()).isEmpty()) {
            current = clients.sessions().create(caller.subject());
            current.addStream(toSocket);
            session = current;
        }
        return current;
    }

    private void initialize(JsonRpcMessage request, GatewaySession current) {
        String version = new ClientVersions(settings.legacyHttpSse()).negotiate(InitializeAnswer.requestedVersion(request.params()));
        current.negotiated(version);
        current.clientRequests().clientCapabilities(request.params().get("capabilities") instanceof JsonObject c ? c : null);
        List<GatewayBackend> backends = sharedBackends.of(caller);
        clients.recorder().opened(current, caller.tenant(), SessionRecorder.WEBSOCKET, version, request.params(), backends);
        sender.send(JsonRpcMessage.result(request.id(), router(backends, current, request).initializeResult(version)).json());
    }

    private void serve(JsonRpcMessage request, GatewaySession current) {
        // the caller's backends are read here, on the container's thread, where the database is at hand
        List<GatewayBackend> backends = sharedBackends.of(caller);
        String key = request.idKey();
        ClientCall call = new ClientCall(request, router(backends, current, request), new SocketReply(),
                current.clientRequests().over(toSocket, longestTimeout(backends)), done -> current.untrack(key, done));
        current.track(key, call);
        try {
            executor.execute(call);
        } catch (RuntimeException e) {
            current.untrack(key, call);
            sender.send(GatewayErrors.error(request.id(), GatewayErrors.INTERNAL_ERROR,
                    "The gateway is at capacity or shutting down; retry later", null).json());
        }
    }

    /** A socket has no headers per message: a client continues its trace in {@code _meta.traceparent}. */
    private static String traceparent(JsonRpcMessage request) {
        return request.params().get("_meta") instanceof JsonObject meta && meta.get(TraceContext.HEADER) instanceof JsonString s
                ? s.getString() : null;
    }

    private McpRouter router(List<GatewayBackend> backends, GatewaySession current, JsonRpcMessage request) {
        return routers.aggregated(new AuditedRouter.Caller(caller.tenant(), caller.subject(), caller.clientId(), current.id(),
                TraceContext.continuingOrNew(traceparent(request)), caller.isAdmin()), backends, current);
    }

    private Duration longestTimeout(List<GatewayBackend> backends) {
        return backends.stream().map(GatewayBackend::timeout).max(Duration::compareTo).orElse(settings.listTimeout());
    }

    /** Everything about a request travels on the socket; a cancelled one gets no answer, as the spec asks. */
    private final class SocketReply implements ClientReply {

        @Override
        public Consumer<JsonObject> progress() {
            return params -> toSocket.accept(JsonRpcMessage.notification("notifications/progress", params));
        }

        @Override
        public void answer(JsonRpcMessage response) {
            toSocket.accept(response);
        }

        @Override
        public void cancelled(JsonRpcMessage request) {
            // nothing to send
        }
    }
}
