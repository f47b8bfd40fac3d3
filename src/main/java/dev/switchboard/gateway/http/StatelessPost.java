package dev.switchboard.gateway.http;

import dev.switchboard.gateway.ClientCall;
import dev.switchboard.gateway.ClientContext;
import dev.switchboard.gateway.GatewayBackend;
import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.gateway.GatewayRouters;
import dev.switchboard.gateway.ListenStreams;
import dev.switchboard.gateway.PolicyRouter;
import dev.switchboard.gateway.modern.ModernBackendAccess;
import dev.switchboard.gateway.modern.ModernRequestCheck;
import dev.switchboard.gateway.modern.ModernRouter;
import dev.switchboard.gateway.modern.PausedCalls;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.RequestMeta;
import jakarta.json.JsonObject;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A POST of the stateless era (MCP 2026-07-28) on {@code /mcp} or {@code /mcp/servers/{name}}: checked
 * ({@link ModernRequestCheck}), then served like a session's request, on a worker, by the endpoint's router stack
 * inside a {@link ModernRouter}, and answered as one JSON body, or as an SSE stream of its own when it asked for
 * progress. No session is made, found or named; closing the stream cancels the request (the era has no resumption).
 */
final class StatelessPost {

    private static final String LISTEN = "subscriptions/listen";
    /** A stateless stream is never resumed: it keeps only what a slow writer has not taken yet. */
    private static final int STREAM_EVENTS_KEPT = 16;

    private final GatewayRouters routers;
    private final Executor executor;
    private final ModernRequestCheck check;
    private final List<String> supported;
    private final Duration retry;
    private final PausedCalls paused;
    private final ListenStreams listens;
    private final ScheduledExecutorService scheduler;
    private final Duration keepAlive;

    /** @param keepAlive how often an open {@code subscriptions/listen} stream carries an SSE comment */
    StatelessPost(GatewayRouters routers, Executor executor, List<String> supported, Duration retry, PausedCalls paused,
                  ListenStreams listens, ScheduledExecutorService scheduler, Duration keepAlive) {
        this.routers = routers;
        this.paused = paused;
        this.listens = listens;
        this.scheduler = scheduler;
        this.keepAlive = keepAlive;
        this.executor = executor;
        this.check = new ModernRequestCheck(supported);
        this.supported = List.copyOf(supported);
        this.retry = retry;
    }

    ModernRequestCheck check() {
        return check;
    }

    /**
     * @param single the backend of {@code /mcp/servers/{name}}, null for {@code /mcp}
     * @param timeout how long the exchange may take
     */
    void serve(JsonRpcMessage m, HttpServletRequest request, HttpServletResponse response, AcceptHeader accept,
               ClientContext who, List<GatewayBackend> backends, GatewayBackend single, Duration timeout) throws IOException {
        switch (m.kind()) {
            // the era defines no client notification over HTTP (closing a stream cancels); one is accepted and dropped
            case NOTIFICATION -> response.setStatus(202);
            case RESPONSE, INVALID -> HttpReplies.error(response, 400, GatewayErrors.INVALID_REQUEST,
                    "Invalid Request: an MCP 2026-07-28 client sends one JSON-RPC request or notification per POST");
            case REQUEST -> {
                Optional<ModernRequestCheck.Refusal> refusal = check.refusal(m, request::getHeader);
                if (refusal.isPresent()) {
                    HttpReplies.json(response, refusal.get().status(), refusal.get().error());
                    return;
                }
                if (LISTEN.equals(m.method())) {
                    ListenPost.serve(m, request, response, who, single, listens, scheduler, keepAlive);
                    return;
                }
                answer(PolicyRouter.withIdempotencyKey(m, request.getHeader(PolicyRouter.IDEMPOTENCY_HEADER)), request,
                        accept, new ModernRouter(routers.stateless(who, backends, single, ModernBackendAccess::new),
                                RequestMeta.of(m.params()), supported, single == null, paused, who.caller()), timeout);
            }
        }
    }

    private void answer(JsonRpcMessage m, HttpServletRequest request, AcceptHeader accept, ModernRouter router,
                        Duration timeout) {
        boolean wantsProgress = m.params().get("_meta") instanceof JsonObject meta && meta.containsKey("progressToken");
        ClientExchange.Mode mode = accept.eventStream() && (wantsProgress || !accept.json())
                ? ClientExchange.Mode.STREAM : ClientExchange.Mode.JSON;
        AsyncContext async = request.startAsync();
        async.setTimeout(timeout.toMillis());
        ClientExchange exchange = new ClientExchange(async, mode, () -> new ResumableStream(0, STREAM_EVENTS_KEPT), retry,
                ModernRouter::httpStatus);
        ClientCall call = new ClientCall(m, router, exchange, null, done -> { });
        async.addListener(new CancelOnAbort(call, () -> false));
        exchange.open();
        try {
            executor.execute(call);
        } catch (RuntimeException e) {
            exchange.answer(GatewayErrors.error(m.id(), GatewayErrors.INTERNAL_ERROR,
                    "The gateway is at capacity or shutting down; retry later", null));
        }
    }
}
