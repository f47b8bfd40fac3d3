package dev.switchboard.gateway.http;

import dev.switchboard.gateway.AnswerOutcome;
import dev.switchboard.gateway.ClientContext;
import dev.switchboard.gateway.GatewayBackend;
import dev.switchboard.gateway.GatewayConfiguration;
import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.gateway.GatewayRouters;
import dev.switchboard.gateway.GatewaySession;
import dev.switchboard.gateway.GatewaySessions;
import dev.switchboard.gateway.GatewaySettings;
import dev.switchboard.gateway.GatewayThreads;
import dev.switchboard.gateway.InitializeAnswer;
import dev.switchboard.gateway.McpRouter;
import dev.switchboard.gateway.PolicyRouter;
import dev.switchboard.gateway.RootsRelay;
import dev.switchboard.gateway.SharedBackends;
import dev.switchboard.gateway.SseStream;
import dev.switchboard.gateway.SseStreams;
import dev.switchboard.gateway.ClientCall;
import dev.switchboard.observability.TraceScope;
import dev.switchboard.gateway.ClientSessions;
import dev.switchboard.gateway.ClientVersions;
import dev.switchboard.gateway.modern.PausedCalls;
import dev.switchboard.security.ProtectedResourceMetadata;
import dev.switchboard.gateway.modern.ModernRequestCheck;
import dev.switchboard.gateway.record.SessionRecorder;
import dev.switchboard.mcp.ModernProtocol;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.security.ApiKeyCheck;
import dev.switchboard.security.CallerIdentity;
import dev.switchboard.security.TokenRefusal;
import dev.switchboard.security.TokenRefusalReason;
import dev.switchboard.security.GatewayCaller;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The aggregated MCP endpoint over Streamable HTTP (spec 2025-11-25): POST carries one client message, GET opens
 * the session's server stream, DELETE ends the session. Liberty's MicroProfile JWT authenticates the caller (a
 * token or an API key); the caller's token is never passed on, backends use their own configured credentials.
 * The URL carries no security constraint: a constraint on {@code /mcp} would also refuse the tokenless WebSocket
 * handshakes of the query dialect, which authenticates in-band. Liberty still verifies any bearer token it is given
 * and lets a request whose token it refused on without a caller; every method here refuses a caller without one
 * (401) itself, naming why a token that was sent was refused ({@code security.TokenRefusalReason}).
 */
@WebServlet(urlPatterns = {"/mcp", "/mcp/servers/*", LegacySseSessions.STREAM_PATH, LegacySseSessions.MESSAGES_PATH},
        asyncSupported = true)
public class McpServlet extends HttpServlet {

    private static final Logger LOG = Logger.getLogger(McpServlet.class.getName());
    static final String SESSION_HEADER = "Mcp-Session-Id";
    static final String VERSION_HEADER = "MCP-Protocol-Version";
    static final String LAST_EVENT_ID_HEADER = "Last-Event-ID";
    /** The error code the reference SDK servers answer an unknown session with. */
    static final int SESSION_NOT_FOUND = -32001;
    /** Room above the slowest backend's own timeout before the container gives up on an exchange. */
    private static final Duration EXCHANGE_SLACK = Duration.ofSeconds(30);
    /** Requests whose backend may ask the client something while serving them. */
    private static final Set<String> BACKEND_MAY_ASK = Set.of("tools/call", "prompts/get", "resources/read",
            "completion/complete");

    @Inject
    GatewayCaller caller;

    @Inject
    GatewayRouters routers;

    @Inject
    ApiKeyCheck apiKeyCheck;

    @Inject
    TokenRefusalReason refusalReason;

    @Inject
    SharedBackends sharedBackends;

    @Inject
    GatewayConfiguration configuration;

    @Inject
    GatewayThreads threads;

    @Resource
    ManagedScheduledExecutorService scheduler;

    private GatewaySettings settings;
    private ClientVersions versions;
    private OriginPolicy origins;
    @Inject
    ClientSessions clients;

    private GatewaySessions sessions;
    private SseStreams streams;
    private LegacySseSessions legacy;
    private StatelessPost stateless;
    @Inject
    ProtectedResourceMetadata resourceMetadata;
    @Inject
    PausedCalls pausedCalls;

    @Override
    public void init() {
        settings = configuration.settings();
        versions = new ClientVersions(settings.legacyHttpSse());
        origins = new OriginPolicy(settings.allowedOrigins());
        sessions = clients.sessions();
        streams = clients.sharedStreams().orElseGet(() -> new StreamRegistry(configuration.replay()));
        stateless = new StatelessPost(routers, threads.executor(), versions.allSupported(), streams.limits().retry(), pausedCalls,
                clients.listens(), scheduler, settings.keepAliveInterval());
        legacy = settings.legacyHttpSse() ? new LegacySseSessions(sessions, clients.recorder(), versions,
                threads.executor(), scheduler, settings.keepAliveInterval()) : null;
        LOG.info(() -> "MCP gateway at /mcp: page size " + settings.pageSize() + ", list timeout "
                + settings.listTimeout() + ", max body " + settings.maxBodyBytes() + " bytes, origins "
                + settings.allowedOrigins() + ", versions " + versions.supported());
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        boolean legacyMessage = endpointPath(request).equals(LegacySseSessions.MESSAGES_PATH);
        if (legacyMessage && legacyOff(response) || !admitted(request, response)) {
            return;
        }
        AcceptHeader accept = AcceptHeader.parse(request.getHeader("Accept"));
        if (accept.acceptsNothingWeSend()) {
            HttpReplies.error(response, 406, GatewayErrors.INVALID_REQUEST,
                    "Not Acceptable: the client must accept application/json and text/event-stream");
            return;
        }
        Optional<byte[]> body = BoundedBody.read(request, settings.maxBodyBytes());
        if (body.isEmpty()) {
            HttpReplies.error(response, 413, GatewayErrors.INVALID_REQUEST,
                    "Message too large: the limit is " + settings.maxBodyBytes() + " bytes");
            return;
        }
        Optional<JsonRpcMessage> message = parse(body.get(), response);
        if (message.isEmpty()) {
            return;
        }
        JsonRpcMessage m = message.get();
        if (!legacyMessage && ModernRequestCheck.selects(request.getHeader(VERSION_HEADER), m)) {
            Optional<Endpoint> endpoint = endpoint(request, response);
            if (endpoint.isPresent()) {
                stateless.serve(m, request, response, accept, who(null), endpoint.get().backends(), endpoint.get().single(),
                        exchangeTimeout(endpoint.get().backends()));
            }
            return;
        }
        if (!versionAccepted(request, response)) {
            return;
        }
        if (legacyMessage) {
            legacyMessage(m, request, response);
            return;
        }
        if (m.kind() == JsonRpcMessage.Kind.REQUEST && "initialize".equals(m.method())) {
            Optional<Endpoint> endpoint = endpoint(request, response);
            if (endpoint.isPresent()) {
                initialize(m, endpoint.get(), response);
            }
            return;
        }
        Optional<GatewaySession> session = session(request, response);
        if (session.isEmpty()) {
            return;
        }
        switch (m.kind()) {
            case NOTIFICATION -> {
                if ("notifications/cancelled".equals(m.method())) {
                    JsonValue requestId = m.params().get("requestId");
                    if (requestId != null) {
                        clients.messages().cancel(session.get(), requestId.toString());
                    }
                } else if (RootsRelay.ROOTS_CHANGED_METHOD.equals(m.method())) {
                    clients.rootsChanged(caller.subject(), sharedBackends.of(caller));
                }
                response.setStatus(202);
            }
            // an answer to a backend's sampling, elicitation or roots request, maybe sent by another member
            case RESPONSE -> answered(m, session.get(), response);
            case REQUEST -> {
                Optional<Endpoint> endpoint = endpoint(request, response);
                if (endpoint.isPresent()) {
                    serve(m, endpoint.get(), session.get(), accept, request);
                }
            }
            case INVALID -> HttpReplies.error(response, 400, GatewayErrors.INVALID_REQUEST,
                    "Invalid Request: not a JSON-RPC 2.0 request, notification or response");
        }
    }

    /** 202 when the request it answers took it; otherwise refused, saying why (docs/gateway.md). */
    private void answered(JsonRpcMessage m, GatewaySession session, HttpServletResponse response) throws IOException {
        AnswerOutcome outcome = clients.messages().answer(session, m);
        if (outcome == AnswerOutcome.DELIVERED) {
            response.setStatus(202);
            return;
        }
        JsonValue id = m.json().getOrDefault("id", JsonValue.NULL);
        HttpReplies.error(response, outcome.status(), GatewayErrors.INVALID_REQUEST, outcome.refusal(id.toString()),
                JSON.createObjectBuilder().add("reason", outcome.reason()).add("id", id).build());
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        boolean legacyStream = endpointPath(request).equals(LegacySseSessions.STREAM_PATH);
        if (legacyStream && legacyOff(response) || !admitted(request, response) || statelessRefused(request, response)) {
            return;
        }
        if (!AcceptHeader.parse(request.getHeader("Accept")).eventStream()) {
            HttpReplies.error(response, 406, GatewayErrors.INVALID_REQUEST, "Not Acceptable: GET /mcp is a text/event-stream");
            return;
        }
        if (!versionAccepted(request, response)) {
            return;
        }
        if (legacyStream) {
            legacy.open(request.startAsync(), caller.subject(), request.getContextPath());
            return;
        }
        Optional<GatewaySession> session = session(request, response);
        if (session.isEmpty()) {
            return;
        }
        String lastEventId = request.getHeader(LAST_EVENT_ID_HEADER);
        if (lastEventId == null) {
            EventStream.open(request.startAsync(), streams.serverStream(session.get()), scheduler,
                    settings.keepAliveInterval(), streams.limits().retry());
            return;
        }
        resume(request, response, session.get(), lastEventId);
    }

    /**
     * GET with {@code Last-Event-ID}: the rest of the stream that id belongs to, the GET stream or a request's SSE
     * answer, from after that event on.
     */
    private void resume(HttpServletRequest request, HttpServletResponse response, GatewaySession session,
                        String lastEventId) throws IOException {
        Optional<SseEventId> id = SseEventId.parse(lastEventId);
        if (id.isEmpty()) {
            HttpReplies.error(response, 400, GatewayErrors.INVALID_REQUEST, "Bad Request: Last-Event-ID '"
                    + lastEventId + "' is not an event id of this server (expected <stream>-<number>)");
            return;
        }
        Optional<SseStream> stream = streams.find(session, id.get().stream());
        if (stream.isEmpty()) {
            HttpReplies.error(response, 400, GatewayErrors.INVALID_REQUEST, "Bad Request: Last-Event-ID '" + lastEventId
                    + "' names a stream this session does not keep (never opened, or finished longer ago than the "
                    + streams.limits().finishedStreams() + " streams kept)");
            return;
        }
        if (id.get().sequence() > stream.get().lastSequence()) {
            HttpReplies.error(response, 400, GatewayErrors.INVALID_REQUEST,
                    "Bad Request: Last-Event-ID '" + lastEventId + "' was never sent on that stream");
            return;
        }
        long lost = EventStream.resume(request.startAsync(), stream.get(), id.get().sequence(), scheduler,
                settings.keepAliveInterval());
        if (lost > 0) {
            LOG.warning(() -> "a client resumed stream " + id.get().stream() + " after " + lost
                    + " events no longer kept (at most " + streams.limits().eventsPerStream() + " per stream)");
        }
    }

    @Override
    protected void doDelete(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!admitted(request, response) || statelessRefused(request, response)) {
            return;
        }
        Optional<GatewaySession> session = session(request, response);
        if (session.isPresent() && sessions.end(session.get().id(), caller.subject())) {
            response.setStatus(200);
        }
    }

    /** MCP 2026-07-28 has neither a GET stream nor sessions to end: its clients only POST. */
    private boolean statelessRefused(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String version = request.getHeader(VERSION_HEADER);
        if (version == null || !ModernProtocol.VERSIONS.contains(version.strip())) {
            return false;
        }
        response.setHeader("Allow", "POST");
        HttpReplies.error(response, 405, GatewayErrors.INVALID_REQUEST, "Method Not Allowed: an MCP " + version.strip()
                + " client sends every message as a POST; there is no GET stream and no session to delete");
        return true;
    }

    /** The 2024-11-05 endpoints exist only with compatibility.legacyHttpSse. */
    private boolean legacyOff(HttpServletResponse response) throws IOException {
        if (legacy == null) {
            HttpReplies.error(response, 404, GatewayErrors.INVALID_REQUEST,
                    "Not found: the legacy HTTP+SSE transport (2024-11-05) is off; set compatibility.legacyHttpSse=true");
        }
        return legacy == null;
    }

    /** One client message of a legacy HTTP+SSE session: 202, the answer goes on the session's stream. */
    private void legacyMessage(JsonRpcMessage m, HttpServletRequest request, HttpServletResponse response) throws IOException {
        Optional<GatewaySession> session = legacy.find(request.getParameter("sessionId"), caller.subject());
        if (session.isEmpty()) {
            HttpReplies.error(response, 404, SESSION_NOT_FOUND, "Session not found");
            return;
        }
        Endpoint endpoint = new Endpoint(GatewaySessions.AGGREGATED, sharedBackends.of(caller), null);
        String subject = caller.subject();
        if (legacy.receive(m, session.get(), router(endpoint, session.get()), caller.tenant(), endpoint.backends(),
                exchangeTimeout(endpoint.backends()), () -> clients.rootsChanged(subject, endpoint.backends()))) {
            response.setStatus(202);
        } else {
            HttpReplies.error(response, 400, GatewayErrors.INVALID_REQUEST,
                    "Invalid Request: not a JSON-RPC 2.0 request, notification or response");
        }
    }

    private static final java.util.regex.Pattern SERVER_NAME = java.util.regex.Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    /** The MCP endpoint a request is for, as its protected resource metadata names it: /mcp or /mcp/servers/{name}. */
    private static String resourcePath(HttpServletRequest request) {
        String info = request.getPathInfo();
        String name = info == null || info.length() < 2 ? "" : info.substring(1).split("/", 2)[0];
        // the name goes into a header: only a name a server can have, never what a caller typed
        return "/mcp/servers".equals(request.getServletPath()) && SERVER_NAME.matcher(name).matches() ? "/mcp/servers/" + name : "/mcp";
    }

    /** DNS-rebinding protection, then the API key revocation check the JAX-RS filter does for /api. */
    private boolean admitted(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!origins.allows(request.getHeader("Origin"))) {
            HttpReplies.error(response, 403, GatewayErrors.INVALID_REQUEST, "Forbidden: Origin not allowed");
            return false;
        }
        if (!caller.isAuthenticated()) {
            String authorization = request.getHeader("Authorization");
            if (authorization != null) {
                // MicroProfile JWT let the request on without a caller: say why it refused the token
                TokenRefusal refusal = refusalReason.of(authorization);
                response.setHeader("WWW-Authenticate", resourceMetadata.challenge(request, resourcePath(request), refusal.challengeError()));
                HttpReplies.error(response, refusal.status(), GatewayErrors.INVALID_REQUEST, "Unauthorized: " + refusal.message());
                return false;
            }
            response.setHeader("WWW-Authenticate", resourceMetadata.challenge(request, resourcePath(request), null));
            HttpReplies.error(response, 401, GatewayErrors.INVALID_REQUEST,
                    "Unauthorized: no token; send 'Authorization: Bearer <token or API key>'");
            return false;
        }
        if (apiKeyCheck.rejects(caller)) {
            response.setHeader("WWW-Authenticate", resourceMetadata.challenge(request, resourcePath(request), "error=\"invalid_token\""));
            HttpReplies.error(response, 401, GatewayErrors.INVALID_REQUEST, "Unauthorized: API key revoked (or not known to this server)");
            return false;
        }
        return true;
    }

    private Optional<JsonRpcMessage> parse(byte[] body, HttpServletResponse response) throws IOException {
        JsonValue value;
        try (var reader = JSON.createReader(new ByteArrayInputStream(body))) {
            value = reader.readValue();
        } catch (JsonException e) {
            HttpReplies.error(response, 400, GatewayErrors.PARSE_ERROR, "Parse error: " + e.getMessage());
            return Optional.empty();
        }
        if (value instanceof JsonArray) {
            HttpReplies.error(response, 400, GatewayErrors.INVALID_REQUEST,
                    "Invalid Request: JSON-RPC batches are not supported; send one message per POST");
            return Optional.empty();
        }
        if (!(value instanceof JsonObject object)) {
            HttpReplies.error(response, 400, GatewayErrors.INVALID_REQUEST, "Invalid Request: expected a JSON-RPC object");
            return Optional.empty();
        }
        return Optional.of(new JsonRpcMessage(object));
    }

    private boolean versionAccepted(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String header = request.getHeader(VERSION_HEADER);
        if (versions.fromHeader(header).isPresent()) {
            return true;
        }
        HttpReplies.json(response, 400, stateless.check().unsupportedVersion(JsonValue.NULL, header.strip()));
        return false;
    }

    /**
     * What a request path serves: {@code /mcp} all of the caller's shared backends, {@code /mcp/servers/{name}} the one
     * of them with that gateway name. The backends are read here, on the request thread, where the caller and the
     * database are at hand.
     */
    private record Endpoint(String path, List<GatewayBackend> backends, GatewayBackend single) {
    }

    private Optional<Endpoint> endpoint(HttpServletRequest request, HttpServletResponse response) throws IOException {
        List<GatewayBackend> backends = sharedBackends.of(caller);
        String path = endpointPath(request);
        if (path.equals(GatewaySessions.AGGREGATED)) {
            return Optional.of(new Endpoint(path, backends, null));
        }
        String name = request.getPathInfo().substring(1);
        Optional<GatewayBackend> single = GatewayBackend.named(backends, name);
        if (single.isEmpty()) {
            HttpReplies.error(response, 404, GatewayErrors.INVALID_REQUEST, "No shared MCP server named '" + name + "'");
            return Optional.empty();
        }
        return Optional.of(new Endpoint(path, List.of(single.get()), single.get()));
    }

    private static String endpointPath(HttpServletRequest request) {
        return request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
    }

    private void initialize(JsonRpcMessage request, Endpoint endpoint, HttpServletResponse response) throws IOException {
        String version = versions.negotiate(InitializeAnswer.requestedVersion(request.params()));
        GatewaySession session = sessions.create(caller.subject(), endpoint.path());
        session.negotiated(version);
        session.clientRequests().clientCapabilities(request.params().get("capabilities") instanceof JsonObject c ? c : null);
        JsonObject result = router(endpoint, session).initializeResult(version);
        clients.recorder().opened(session, caller.tenant(), SessionRecorder.STREAMABLE_HTTP, version, request.params(),
                endpoint.backends());
        response.setHeader(SESSION_HEADER, session.id());
        HttpReplies.json(response, 200, JsonRpcMessage.result(request.id(), result));
    }

    private Optional<GatewaySession> session(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String id = request.getHeader(SESSION_HEADER);
        if (id == null) {
            HttpReplies.error(response, 400, GatewayErrors.INVALID_REQUEST, "Bad Request: Mcp-Session-Id header required");
            return Optional.empty();
        }
        Optional<GatewaySession> session = sessions.find(id, caller.subject())
                .filter(s -> s.endpoint().equals(endpointPath(request)));
        if (session.isEmpty()) {
            HttpReplies.error(response, 404, SESSION_NOT_FOUND, "Session not found");
        }
        return session;
    }

    /**
     * Answers on a worker so the container thread is free while backends work. A request that asked for progress is
     * answered on an SSE stream when the client accepts one; one a backend may answer with requests of its own
     * (sampling, elicitation, roots) gets a stream once something has to reach the client before the response.
     */
    private void serve(JsonRpcMessage m, Endpoint endpoint, GatewaySession session, AcceptHeader accept,
                       HttpServletRequest request) {
        m = PolicyRouter.withIdempotencyKey(m, request.getHeader(PolicyRouter.IDEMPOTENCY_HEADER));
        List<GatewayBackend> backends = endpoint.backends();
        McpRouter router = router(endpoint, session);
        boolean wantsProgress = m.params().get("_meta") instanceof JsonObject meta && meta.containsKey("progressToken");
        ClientExchange.Mode mode = !accept.eventStream() ? ClientExchange.Mode.JSON
                : !accept.json() || wantsProgress ? ClientExchange.Mode.STREAM
                : BACKEND_MAY_ASK.contains(m.method()) ? ClientExchange.Mode.STREAM_WHEN_NEEDED
                : ClientExchange.Mode.JSON;
        AsyncContext async = request.startAsync();
        async.setTimeout(exchangeTimeout(backends).toMillis());
        ClientExchange exchange = new ClientExchange(async, mode, () -> streams.newRequestStream(session),
                streams.limits().retry());
        String key = m.idKey();
        ClientCall call = new ClientCall(m, router, exchange, clientRequests(session, exchange, backends),
                done -> session.untrack(key, done));
        async.addListener(new CancelOnAbort(call, exchange::resumable));
        session.track(key, call);
        exchange.open();
        try {
            threads.executor().execute(call);
        } catch (RuntimeException e) {
            session.untrack(key, call);
            exchange.answer(GatewayErrors.error(m.id(), GatewayErrors.INTERNAL_ERROR,
                    "The gateway is at capacity or shutting down; retry later", null));
        }
    }

    /**
     * Backends' requests made while serving this exchange travel on its SSE stream; a JSON exchange cannot carry them,
     * so they go on the session's GET stream (the spec lets a server send requests there), and without one the
     * client cannot be asked at all.
     */
    private ServerRequestHandler clientRequests(GatewaySession session, ClientExchange exchange,
                                                List<GatewayBackend> backends) {
        Duration timeout = exchangeTimeout(backends);
        if (exchange.carriesEvents()) {
            return session.clientRequests().over(exchange::request, timeout);
        }
        return session.hasStreams() ? session.clientRequests().over(session::sendToStreams, timeout) : null;
    }

    private McpRouter router(Endpoint endpoint, GatewaySession session) {
        ClientContext who = who(session.id());
        return endpoint.single() != null
                ? routers.passthrough(who, endpoint.single(), session)
                : routers.aggregated(who, endpoint.backends(), session);
    }

    /** @param sessionId null for a request without a session (MCP 2026-07-28) */
    private ClientContext who(String sessionId) {
        return new ClientContext(CallerIdentity.of(caller), caller.clientId(), sessionId, TraceScope.currentOrNew());
    }

    private Duration exchangeTimeout(List<GatewayBackend> backends) {
        Duration longest = backends.stream().map(GatewayBackend::timeout).max(Duration::compareTo).orElse(Duration.ZERO);
        Duration base = longest.compareTo(settings.listTimeout()) > 0 ? longest : settings.listTimeout();
        return base.plus(EXCHANGE_SLACK);
    }
}
