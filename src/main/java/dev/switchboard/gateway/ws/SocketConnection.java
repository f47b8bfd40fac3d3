package dev.switchboard.gateway.ws;

import dev.switchboard.audit.AuditLog;
import dev.switchboard.backend.pool.BackendConnectionPool;
import dev.switchboard.gateway.AuditedRouter;
import dev.switchboard.gateway.GatewayBackend;
import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.gateway.GatewayRouter;
import dev.switchboard.gateway.GatewaySession;
import dev.switchboard.gateway.GatewaySettings;
import dev.switchboard.gateway.InitializeAnswer;
import dev.switchboard.gateway.McpRouter;
import dev.switchboard.gateway.PooledBackendAccess;
import dev.switchboard.gateway.SharedBackends;
import dev.switchboard.gateway.UpstreamCall;
import dev.switchboard.gateway.UpstreamReply;
import dev.switchboard.gateway.UpstreamSessions;
import dev.switchboard.gateway.UpstreamVersions;
import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;

/**
 * The MCP side of one socket: its upstream session (made at the handshake for an authenticated caller, ended with
 * the socket, which cancels what is still in flight), and every JSON-RPC message the client sends on it. The socket
 * carries everything the session's server sends too: responses, progress, backends' requests and notifications.
 */
final class SocketConnection {

    /** The code the SDK servers use when a request needs a session the client does not have. */
    static final int AUTHENTICATION_REQUIRED = -32001;

    private final SocketSender sender;
    private final SocketCaller caller;
    private final UpstreamSessions upstream;
    private final SharedBackends sharedBackends;
    private final BackendConnectionPool pool;
    private final ExecutorService executor;
    private final GatewaySettings settings;
    private final AuditLog audit;
    private final Consumer<JsonRpcMessage> toSocket;
    private volatile GatewaySession session;

    SocketConnection(SocketSender sender, SocketCaller caller, UpstreamSessions upstream, SharedBackends sharedBackends,
                     BackendConnectionPool pool, ExecutorService executor, GatewaySettings settings, AuditLog audit) {
        this.sender = sender;
        this.caller = caller;
        this.upstream = upstream;
        this.sharedBackends = sharedBackends;
        this.pool = pool;
        this.executor = executor;
        this.settings = settings;
        this.audit = audit;
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
            upstream.sessions().end(current.id(), current.subject());
        }
    }

    /** The socket's session; a new one if the old one idled out while the socket stayed open. */
    private synchronized GatewaySession liveSession() {
        GatewaySession current = session;
        if (current == null || upstream.sessions().find(current.id(), caller.subject()).isEmpty()) {
            current = upstream.sessions().create(caller.subject());
            current.addStream(toSocket);
            session = current;
        }
        return current;
    }

    private void initialize(JsonRpcMessage request, GatewaySession current) {
        String version = new UpstreamVersions(settings.legacyHttpSse()).negotiate(InitializeAnswer.requestedVersion(request.params()));
        current.clientRequests().clientCapabilities(request.params().get("capabilities") instanceof JsonObject c ? c : null);
        JsonObject capabilities = router(sharedBackends.of(caller), current).capabilities();
        sender.send(JsonRpcMessage.result(request.id(), InitializeAnswer.result(version, capabilities)).json());
    }

    private void serve(JsonRpcMessage request, GatewaySession current) {
        // the caller's backends are read here, on the container's thread, where the database is at hand
        List<GatewayBackend> backends = sharedBackends.of(caller);
        String key = request.idKey();
        UpstreamCall call = new UpstreamCall(request, audited(router(backends, current), current), new SocketReply(),
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

    private GatewayRouter router(List<GatewayBackend> backends, GatewaySession current) {
        return new GatewayRouter(backends, new PooledBackendAccess(pool, caller.subject()), executor, settings,
                upstream.subscriptions().of(current));
    }

    private McpRouter audited(GatewayRouter router, GatewaySession current) {
        return new AuditedRouter(router, audit, new AuditedRouter.Caller(caller.tenant(), caller.subject(), current.id()));
    }

    private Duration longestTimeout(List<GatewayBackend> backends) {
        return backends.stream().map(GatewayBackend::timeout).max(Duration::compareTo).orElse(settings.listTimeout());
    }

    /** Everything about a request travels on the socket; a cancelled one gets no answer, as the spec asks. */
    private final class SocketReply implements UpstreamReply {

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
