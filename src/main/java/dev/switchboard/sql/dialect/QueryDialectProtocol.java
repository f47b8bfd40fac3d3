package dev.switchboard.sql.dialect;

import dev.switchboard.sql.Caller;
import dev.switchboard.sql.Params;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import dev.switchboard.sql.auth.PermissionMapping;
import dev.switchboard.sql.auth.TokenVerifier;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The query dialect on one connection, whatever carries it (the /mcp WebSocket, the TCP transport): admits the
 * connection on its first message, checks each message's shape, the connection's limits, negotiation and
 * authentication, then runs the method on the request executor and answers through the channel. Order on a
 * connection: {@code protocol.negotiate}, then {@code auth.authenticate}, then the query, schema and session methods.
 * <p>
 * At most {@link DialectSettings#maxConnections()} connections, of all transports together, speak the dialect at
 * once: a connection whose first message finds them all taken gets -32000 {@code too_many_connections} and is closed,
 * as the TCP transport refuses a socket over its own count. A WebSocket on /mcp only becomes a dialect connection with
 * its first dialect message (the same socket could carry MCP instead), so that is where it is counted.
 */
public final class QueryDialectProtocol implements QueryDialectHandler {

    private static final Logger LOG = Logger.getLogger(QueryDialectProtocol.class.getName());
    public static final String VERSION = "1.0.0";
    private static final String STATE = "queryDialect.state";

    /** What one connection has established. */
    private static final class State {
        final ConnectionLimits limits;
        volatile boolean negotiated;
        /** The verified token's claims: the caller is made from them for each request, with its permissions as they are then. */
        volatile JsonObject claims;

        State(ConnectionLimits limits) {
            this.limits = limits;
        }
    }

    private final QueryMethods methods;
    private final TokenVerifier tokens;
    private final PermissionMapping permissions;
    private final Executor requests;
    private final ScheduledExecutorService timers;
    private final SessionWatch sessions;
    private final DialectSettings settings;
    private final Clock clock;
    /** Every admitted connection that has not closed: the audience of {@code system.status}. */
    private final Set<DialectChannel> open = ConcurrentHashMap.newKeySet();
    /** Admitted connections not yet closed; {@link #open} may lag it by a moment, so the limit counts here. */
    private final AtomicInteger connections = new AtomicInteger();

    public QueryDialectProtocol(QueryMethods methods, TokenVerifier tokens, PermissionMapping permissions, Executor requests,
                       ScheduledExecutorService timers, SessionWatch sessions, DialectSettings settings, Clock clock) {
        this.methods = methods;
        this.tokens = tokens;
        this.permissions = permissions;
        this.requests = requests;
        this.timers = timers;
        this.sessions = sessions;
        this.settings = settings;
        this.clock = clock;
    }

    public DialectSettings settings() {
        return settings;
    }

    @Override
    public void onMessage(JsonObject message, DialectChannel channel) {
        JsonValue id = message.get("id");
        boolean validId = id instanceof JsonString || id != null && id.getValueType() == JsonValue.ValueType.NUMBER;
        State state = admitted(channel, validId ? id : null);
        if (state == null) {
            return;
        }
        String type = message.get("type") instanceof JsonString s ? s.getString() : null;
        if ("notification".equals(type)) {
            return; // the dialect defines no client notifications; one-way messages get no answer
        }
        if (!"request".equals(type) || !validId || !(message.get("method") instanceof JsonString method)) {
            channel.send(DialectMessages.error(validId ? id : null,
                    QueryErrorCode.INVALID_REQUEST, "无效请求：需要 type=request、id 和 method", Map.of()));
            return;
        }
        JsonValue rawParams = message.get("params");
        if (rawParams != null && rawParams.getValueType() != JsonValue.ValueType.OBJECT && rawParams.getValueType() != JsonValue.ValueType.NULL) {
            channel.send(DialectMessages.error(id, QueryErrorCode.INVALID_PARAMS, "params 须为对象", Map.of("param", "params")));
            return;
        }
        JsonObject params = rawParams instanceof JsonObject o ? o : JsonValue.EMPTY_JSON_OBJECT;
        try {
            state.limits.admit();
        } catch (QueryException e) {
            channel.send(DialectMessages.error(id, e));
            return;
        }
        try {
            requests.execute(() -> run(id, method.getString(), params, channel, state));
        } catch (RejectedExecutionException e) {
            state.limits.release();
            channel.send(DialectMessages.error(id, QueryErrorCode.SERVER, "服务器繁忙，请稍后重试", Map.of("reason", "overloaded")));
        }
    }

    @Override
    public void onClose(DialectChannel channel) {
        if (channel.attributes().remove(STATE) != null) {
            open.remove(channel);
            connections.decrementAndGet();
        }
        sessions.forget(channel);
    }

    /** The query dialect's {@code system.status} to every open connection; returns how many got it. */
    public int broadcast(JsonObject status) {
        JsonObject notification = DialectMessages.notification("system.status", status);
        open.forEach(channel -> channel.send(notification));
        return open.size();
    }

    private void run(JsonValue id, String method, JsonObject params, DialectChannel channel, State state) {
        ScheduledFuture<?> progress = null;
        try {
            if (method.equals("query.execute")) {
                progress = reportProgress(id, channel, params);
            }
            channel.send(DialectMessages.response(id, call(method, params, channel, state)));
        } catch (QueryException e) {
            channel.send(DialectMessages.error(id, e));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "query-dialect request " + method + " failed", e);
            channel.send(DialectMessages.error(id, QueryErrorCode.INTERNAL, "内部错误", Map.of("reason", e.getClass().getSimpleName())));
        } finally {
            if (progress != null) {
                progress.cancel(false);
            }
            state.limits.release();
        }
    }

    private JsonObject call(String method, JsonObject params, DialectChannel channel, State state) {
        if (method.equals("protocol.negotiate")) {
            JsonObject result = negotiate(params);
            state.negotiated = true;
            return result;
        }
        QueryMethods.Method handler = methods.find(method).orElse(null);
        if (handler == null && !method.equals("auth.authenticate")) {
            throw new QueryException(QueryErrorCode.METHOD_NOT_FOUND, "方法未找到", Map.of("method", method));
        }
        if (!state.negotiated) {
            throw new QueryException(QueryErrorCode.VERSION, "请先进行版本协商 (protocol.negotiate)",
                    Params.data("reason", "not_negotiated", "supported_versions", List.of(VERSION)));
        }
        if (handler == null) {
            JsonObject claims = tokens.verify(Params.requiredString(params, "token"));
            Caller caller = permissions.caller(claims);
            state.claims = claims;
            return authenticated(caller);
        }
        JsonObject claims = state.claims;
        if (claims == null) {
            throw new QueryException(QueryErrorCode.AUTHENTICATION, "认证失败", Map.of("reason", "未认证：请先调用 auth.authenticate"));
        }
        Caller caller = permissions.caller(claims);
        if (!clock.instant().isBefore(caller.expiresAt())) {
            throw new QueryException(QueryErrorCode.AUTHENTICATION, "认证失败",
                    Params.data("reason", "访问令牌已过期", "expires_at", caller.expiresAt().toString()));
        }
        JsonObject result = handler.call(caller, params);
        sessions.watch(channel, result.getString("session_id", params.getString("session_id", null)));
        if (method.equals("session.destroy")) {
            sessions.unwatch(channel, params.getString("session_id", ""));
        }
        return result;
    }

    private static JsonObject negotiate(JsonObject params) {
        JsonValue versions = params.get("versions");
        if (!(versions instanceof JsonArray list) || list.isEmpty()) {
            throw Params.invalid("versions", "versions 须为非空的版本数组");
        }
        boolean supported = list.stream().anyMatch(v -> v instanceof JsonString s && VERSION.equals(s.getString()));
        if (!supported) {
            throw new QueryException(QueryErrorCode.VERSION, "版本不兼容",
                    Params.data("requested_versions", list, "supported_versions", List.of(VERSION)));
        }
        return JSON.createObjectBuilder().add("version", VERSION)
                .add("supported_versions", JSON.createArrayBuilder().add(VERSION))
                .add("server_info", JSON.createObjectBuilder().add("name", "Switchboard NL->SQL").add("version", VERSION))
                .build();
    }

    private static JsonObject authenticated(Caller caller) {
        return JSON.createObjectBuilder().add("success", true)
                .add("user", JSON.createObjectBuilder().add("id", caller.userId()).add("username", caller.username())
                        .add("roles", JSON.createArrayBuilder(caller.roles()))
                        .add("permissions", JSON.createArrayBuilder(caller.permissions().sorted())))
                .add("expires_at", caller.expiresAt().toString()).build();
    }

    /** {@code query.progress} every interval while a query runs; progress is the share of its timeout used. */
    private ScheduledFuture<?> reportProgress(JsonValue id, DialectChannel channel, JsonObject params) {
        long started = System.nanoTime();
        int timeout = Math.max(1, Params.optionalObject(params, "options").getInt("timeout", 30));
        long every = settings.progressInterval().toMillis();
        return timers.scheduleAtFixedRate(() -> {
            double elapsed = (System.nanoTime() - started) / 1e9;
            channel.send(DialectMessages.notification("query.progress", JSON.createObjectBuilder()
                    .add("query_id", id).add("progress", Math.min(0.99, Math.round(elapsed / timeout * 100) / 100.0))
                    .add("message", "正在执行查询...").add("elapsed", Math.round(elapsed * 10) / 10.0).build()));
        }, every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * The connection's state, admitting it first when this is its first message; null when it was refused (answered
     * with -32000 and closed). A transport delivers one connection's messages one at a time, so only the count is
     * shared between threads.
     */
    private State admitted(DialectChannel channel, JsonValue id) {
        if (channel.attributes().get(STATE) instanceof State state) {
            return state;
        }
        if (connections.incrementAndGet() > settings.maxConnections()) {
            connections.decrementAndGet();
            channel.send(DialectMessages.error(id, QueryErrorCode.SERVER, "连接数已达上限",
                    Params.data("reason", "too_many_connections", "max_connections", settings.maxConnections())));
            channel.close("too_many_connections");
            return null;
        }
        State state = new State(new ConnectionLimits(settings.requestsPerMinute(), settings.concurrentRequests(), clock));
        channel.attributes().put(STATE, state);
        open.add(channel);
        return state;
    }
}
