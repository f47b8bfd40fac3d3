package dev.switchboard.gateway;

import dev.switchboard.backend.pool.PoolKey;
import dev.switchboard.mcp.JsonRpcMessage;

import java.util.function.Consumer;

/**
 * Tells a caller's client sessions (and stateless clients' {@code subscriptions/listen} streams) that the aggregated tool list changed when one of the caller's pooled backend
 * sessions announces {@code tools/list_changed}. The pool serves a caller's own servers too, so a change there also
 * reaches the gateway's clients; a spare {@code list_changed} costs them one listing.
 */
public final class ToolsChangedRelay implements Consumer<PoolKey> {

    private static final JsonRpcMessage LIST_CHANGED = JsonRpcMessage.notification("notifications/tools/list_changed", null);

    private final GatewaySessions sessions;
    private final ListenStreams listens;
    private final ServerStreams sharedStreams;

    public ToolsChangedRelay(GatewaySessions sessions, ListenStreams listens) {
        this(sessions, listens, ServerStreams.NONE);
    }

    /** @param sharedStreams the GET streams of a cluster, which reach the caller's sessions held by other members too */
    public ToolsChangedRelay(GatewaySessions sessions, ListenStreams listens, ServerStreams sharedStreams) {
        this.sessions = sessions;
        this.listens = listens;
        this.sharedStreams = sharedStreams;
    }

    @Override
    public void accept(PoolKey changed) {
        sessions.ofSubject(changed.userSubject()).forEach(session -> session.sendToOwnStreams(LIST_CHANGED));
        sharedStreams.sendToSubject(changed.userSubject(), LIST_CHANGED);
        listens.changed(changed.userSubject(), changed.serverId(), LIST_CHANGED.method());
    }
}
