package dev.switchboard.gateway;

import dev.switchboard.backend.pool.PoolKey;
import dev.switchboard.mcp.JsonRpcMessage;

import java.util.function.Consumer;

/**
 * Tells a caller's client sessions that the aggregated tool list changed when one of the caller's pooled backend
 * sessions announces {@code tools/list_changed}. The pool serves a caller's own servers too, so a change there also
 * reaches the gateway's clients; a spare {@code list_changed} costs them one listing.
 */
public final class ToolsChangedRelay implements Consumer<PoolKey> {

    private static final JsonRpcMessage LIST_CHANGED = JsonRpcMessage.notification("notifications/tools/list_changed", null);

    private final GatewaySessions sessions;
    private final ServerStreams sharedStreams;

    public ToolsChangedRelay(GatewaySessions sessions) {
        this(sessions, ServerStreams.NONE);
    }

    /** @param sharedStreams the GET streams of a cluster, which reach the caller's sessions held by other members too */
    public ToolsChangedRelay(GatewaySessions sessions, ServerStreams sharedStreams) {
        this.sessions = sessions;
        this.sharedStreams = sharedStreams;
    }

    @Override
    public void accept(PoolKey changed) {
        sessions.ofSubject(changed.userSubject()).forEach(session -> session.sendToOwnStreams(LIST_CHANGED));
        sharedStreams.sendToSubject(changed.userSubject(), LIST_CHANGED);
    }
}
