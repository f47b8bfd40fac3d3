package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * One client session ({@code Mcp-Session-Id}): whose it is, the requests it has in
 * flight (so {@code notifications/cancelled} and the end of the session reach the backend that is working on them)
 * and what to close when it ends.
 */
public final class GatewaySession {

    /** A request being served; cancelling must be idempotent and harmless after the answer went out. */
    public interface InFlight {
        void cancel();
    }

    private final String id;
    private final String subject;
    private final String endpoint;
    private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();
    private final List<Runnable> closeActions = new CopyOnWriteArrayList<>();
    private final List<Consumer<JsonRpcMessage>> streams = new CopyOnWriteArrayList<>();
    private volatile Instant lastUsedAt;
    private volatile Instant recordedAt;
    private volatile boolean ended;
    private final ServerStreams sharedStreams;
    private volatile String protocolVersion = ClientVersions.LATEST;
    private final ClientRequests clientRequests;

    /**
     * @param sharedStreams the GET streams the members of a cluster share ({@link ServerStreams#NONE} alone)
     * @param member        this instance's name in the ids of requests to the client ({@link ClientRequestIds})
     */
    GatewaySession(String id, String subject, String endpoint, Instant now, ServerStreams sharedStreams, String member) {
        this.sharedStreams = sharedStreams;
        this.id = id;
        this.subject = subject;
        this.endpoint = endpoint;
        this.lastUsedAt = now;
        this.recordedAt = now;
        this.clientRequests = new ClientRequests(member);
    }

    public String id() {
        return id;
    }

    public String subject() {
        return subject;
    }

    /** The endpoint path the session was opened at; it answers there only. */
    public String endpoint() {
        return endpoint;
    }

    Instant lastUsedAt() {
        return lastUsedAt;
    }

    void touch(Instant now) {
        lastUsedAt = now;
    }

    /** Whether the ledger last heard of this session's use before {@code instant}. */
    boolean recordedBefore(Instant instant) {
        return recordedAt.isBefore(instant);
    }

    void recorded(Instant now) {
        recordedAt = now;
    }

    /** The protocol version {@code initialize} negotiated with the client (the latest until then). */
    public String protocolVersion() {
        return protocolVersion;
    }

    public void negotiated(String version) {
        if (version != null) {
            protocolVersion = version;
        }
    }

    /** The requests backends make of this session's client. */
    public ClientRequests clientRequests() {
        return clientRequests;
    }

    /** True while the session has a GET stream: one of its own, or one the members of a cluster share. */
    public boolean hasStreams() {
        return !streams.isEmpty() || sharedStreams.has(id);
    }

    public boolean isEnded() {
        return ended;
    }

    /**
     * Records a request the client sent (keyed by its id's JSON text) while it is being served.
     */
    public void track(String requestIdKey, InFlight request) {
        inFlight.put(requestIdKey, request);
    }

    public void untrack(String requestIdKey, InFlight request) {
        inFlight.remove(requestIdKey, request);
    }

    /**
     * Cancels the request the client named; the worker's interrupt makes the backend client send
     * {@code notifications/cancelled} to the one backend serving it. A request already answered is ignored.
     */
    public boolean cancel(String requestIdKey) {
        InFlight request = inFlight.remove(requestIdKey);
        if (request == null) {
            return false;
        }
        request.cancel();
        return true;
    }

    /** Registers an open GET stream, which receives every message the server starts for this session. */
    public void addStream(Consumer<JsonRpcMessage> stream) {
        streams.add(stream);
    }

    public void removeStream(Consumer<JsonRpcMessage> stream) {
        streams.remove(stream);
    }

    /** Sends a server-initiated message on every GET stream; without one, the client simply misses it. */
    public void sendToStreams(JsonRpcMessage message) {
        sendToOwnStreams(message);
        sharedStreams.send(id, message);
    }

    /**
     * Sends a server-initiated message on this process's own streams of the session only: for a message every session
     * of a caller gets, which reaches the shared GET streams through {@link ServerStreams#sendToSubject} once each.
     */
    public void sendToOwnStreams(JsonRpcMessage message) {
        streams.forEach(stream -> stream.accept(message));
    }

    /** Runs when the session ends (closes its GET streams). */
    public void onEnd(Runnable action) {
        closeActions.add(action);
        if (ended && closeActions.remove(action)) {
            action.run();
        }
    }

    public void removeOnEnd(Runnable action) {
        closeActions.remove(action);
    }

    /** Cancels everything in flight and runs the close actions; idempotent. */
    void end() {
        ended = true;
        clientRequests.abandonAll();
        for (String key : List.copyOf(inFlight.keySet())) {
            cancel(key);
        }
        for (Runnable action : List.copyOf(closeActions)) {
            if (closeActions.remove(action)) {
                action.run();
            }
        }
    }
}
