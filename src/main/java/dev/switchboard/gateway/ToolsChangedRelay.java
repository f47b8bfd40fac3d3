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

    public ToolsChangedRelay(GatewaySessions sessions, ListenStreams listens) {
        this.sessions = sessions;
        this.listens = listens;
    }

    @Override
    public void accept(PoolKey changed) {
        sessions.ofSubject(changed.userSubject()).forEach(session -> session.sendToStreams(LIST_CHANGED));
        listens.changed(changed.userSubject(), changed.serverId(), LIST_CHANGED.method());
    }
}
