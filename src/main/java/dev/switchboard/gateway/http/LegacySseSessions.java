package dev.switchboard.gateway.http;

import dev.switchboard.gateway.GatewayBackend;
import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.gateway.GatewaySession;
import dev.switchboard.gateway.GatewaySessions;
import dev.switchboard.gateway.InitializeAnswer;
import dev.switchboard.gateway.McpRouter;
import dev.switchboard.gateway.RootsRelay;
import dev.switchboard.gateway.SessionLedger;
import dev.switchboard.gateway.ClientCall;
import dev.switchboard.gateway.ClientReply;
import dev.switchboard.gateway.ClientVersions;
import dev.switchboard.gateway.record.SessionRecorder;
import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.JsonObject;
import jakarta.servlet.AsyncContext;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The HTTP+SSE transport of protocol 2024-11-05, served only with {@code compatibility.legacyHttpSse}: a GET of
 * {@link #STREAM_PATH} opens a session of the aggregated endpoint whose every server message (responses, progress, a
 * backend's requests, notifications) travels on that stream, after an {@code endpoint} event naming where to POST;
 * each POST to {@link #MESSAGES_PATH}{@code ?sessionId=...} carries one client message and is answered 202. The
 * session ends with its stream, and the stream with the session.
 */
final class LegacySseSessions {

    static final String STREAM_PATH = "/mcp/sse";
    static final String MESSAGES_PATH = "/mcp/messages";

    private final GatewaySessions sessions;
    private final SessionRecorder recorder;
    private final ClientVersions versions;
    private final ExecutorService executor;
    private final ScheduledExecutorService scheduler;
    private final Duration keepAliveInterval;

    LegacySseSessions(GatewaySessions sessions, SessionRecorder recorder, ClientVersions versions,
                      ExecutorService executor, ScheduledExecutorService scheduler, Duration keepAliveInterval) {
        this.sessions = sessions;
        this.recorder = recorder;
        this.versions = versions;
        this.executor = executor;
        this.scheduler = scheduler;
        this.keepAliveInterval = keepAliveInterval;
    }

    /** GET /mcp/sse: a new session, announced by the {@code endpoint} event its client POSTs to. */
    void open(AsyncContext async, String subject, String contextPath) {
        GatewaySession session = sessions.create(subject, STREAM_PATH);
        async.setTimeout(0);
        SseConnection connection = SseConnection.open(async);
        ScheduledFuture<?> keepAlive = scheduler.scheduleAtFixedRate(() -> connection.write(": keep-alive\n\n"),
                keepAliveInterval.toMillis(), keepAliveInterval.toMillis(), TimeUnit.MILLISECONDS);
        connection.whenClosed(() -> {
            keepAlive.cancel(false);
            sessions.end(session.id(), subject, SessionLedger.EndReason.CLOSED);
        });
        session.onEnd(connection::end);
        session.addStream(message -> connection.write("event: message\ndata: " + message.toJson() + "\n\n"));
        connection.write("event: endpoint\ndata: " + contextPath + MESSAGES_PATH + "?sessionId=" + session.id() + "\n\n");
    }

    /** The caller's legacy session named by a POST's {@code sessionId}. */
    Optional<GatewaySession> find(String sessionId, String subject) {
        return sessions.find(sessionId, subject).filter(s -> s.endpoint().equals(STREAM_PATH));
    }

    /**
     * One client message of a session. Requests are served on a worker; their answers and everything else the server
     * says go on the session's stream.
     *
     * @param backends     the caller's backends, read on the request thread
     * @param rootsChanged tells the caller's backends that the client's roots changed
     * @return false for a message that is no JSON-RPC message at all (the POST is refused then)
     */
    boolean receive(JsonRpcMessage message, GatewaySession session, McpRouter router, String tenant,
                    List<GatewayBackend> backends, Duration timeout, Runnable rootsChanged) {
        Consumer<JsonRpcMessage> stream = session::sendToStreams;
        switch (message.kind()) {
            case REQUEST -> {
                if ("initialize".equals(message.method())) {
                    initialize(message, session, router, tenant, backends);
                } else {
                    serve(message, session, router, stream, timeout);
                }
            }
            case NOTIFICATION -> {
                if ("notifications/cancelled".equals(message.method()) && message.params().get("requestId") != null) {
                    session.cancel(message.params().get("requestId").toString());
                } else if (RootsRelay.ROOTS_CHANGED_METHOD.equals(message.method())) {
                    rootsChanged.run();
                }
            }
            case RESPONSE -> session.clientRequests().answer(message);
            case INVALID -> {
                return false;
            }
        }
        return true;
    }

    private void initialize(JsonRpcMessage request, GatewaySession session, McpRouter router, String tenant,
                            List<GatewayBackend> backends) {
        String version = versions.negotiate(InitializeAnswer.requestedVersion(request.params()));
        session.negotiated(version);
        session.clientRequests().clientCapabilities(request.params().get("capabilities") instanceof JsonObject c ? c : null);
        JsonObject result = router.initializeResult(version);
        recorder.opened(session, tenant, SessionRecorder.LEGACY_SSE, version, request.params(), backends);
        session.sendToStreams(JsonRpcMessage.result(request.id(), result));
    }

    private void serve(JsonRpcMessage request, GatewaySession session, McpRouter router, Consumer<JsonRpcMessage> stream,
                       Duration timeout) {
        String key = request.idKey();
        ClientCall call = new ClientCall(request, router, new StreamReply(stream),
                session.clientRequests().over(stream, timeout), done -> session.untrack(key, done));
        session.track(key, call);
        try {
            executor.execute(call);
        } catch (RuntimeException e) {
            session.untrack(key, call);
            stream.accept(GatewayErrors.error(request.id(), GatewayErrors.INTERNAL_ERROR,
                    "The gateway is at capacity or shutting down; retry later", null));
        }
    }

    /** Everything about a request goes on the session's stream; a cancelled one gets no answer, as the spec asks. */
    private record StreamReply(Consumer<JsonRpcMessage> stream) implements ClientReply {

        @Override
        public Consumer<JsonObject> progress() {
            return params -> stream.accept(JsonRpcMessage.notification("notifications/progress", params));
        }

        @Override
        public void answer(JsonRpcMessage response) {
            stream.accept(response);
        }

        @Override
        public void cancelled(JsonRpcMessage request) {
            // nothing to send
        }
    }
}
