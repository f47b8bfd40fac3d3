package dev.switchboard.gateway;

import dev.switchboard.backend.pool.BackendNotification;
import dev.switchboard.mcp.JsonRpcMessage;

import java.util.function.Consumer;

/**
 * Passes what a caller's pooled backend sessions announce on to that caller's client sessions: a resource update
 * to the sessions subscribed to it, the completion of a URL-mode elicitation to the session it was sent to, list
 * changes and log messages to all of them (on their GET streams). Like
 * {@link ToolsChangedRelay}, a change on one of the caller's own servers reaches them too; a spare
 * {@code list_changed} costs a client one listing.
 */
public final class BackendEventsRelay implements Consumer<BackendNotification> {

    static final String ELICITATION_COMPLETE = "notifications/elicitation/complete";

    private final GatewaySessions sessions;
    private final ResourceSubscriptions subscriptions;
    private final ListenStreams listens;
    private final ServerStreams sharedStreams;

    public BackendEventsRelay(GatewaySessions sessions, ResourceSubscriptions subscriptions, ListenStreams listens) {
        this(sessions, subscriptions, listens, ServerStreams.NONE);
    }

    /** @param sharedStreams the GET streams of a cluster, which reach the caller's sessions held by other members too */
    public BackendEventsRelay(GatewaySessions sessions, ResourceSubscriptions subscriptions, ListenStreams listens,
                              ServerStreams sharedStreams) {
        this.sessions = sessions;
        this.subscriptions = subscriptions;
        this.listens = listens;
        this.sharedStreams = sharedStreams;
    }

    @Override
    public void accept(BackendNotification notification) {
        String subject = notification.key().userSubject();
        if ("notifications/resources/updated".equals(notification.method())) {
            subscriptions.updated(subject, notification.key().serverId(), notification.params());
            return;
        }
        JsonRpcMessage message = JsonRpcMessage.notification(notification.method(),
                notification.params().isEmpty() ? null : notification.params());
        if (ELICITATION_COMPLETE.equals(notification.method())) {
            // only to the session that was sent the elicitation: another client of the caller never saw it
            String elicitation = notification.params().getString("elicitationId", "");
            sessions.ofSubject(subject).stream().filter(session -> session.clientRequests().completes(elicitation))
                    .forEach(session -> session.sendToStreams(message));
            return;
        }
        sessions.ofSubject(subject).forEach(session -> session.sendToOwnStreams(message));
        sharedStreams.sendToSubject(subject, message);
        listens.changed(subject, notification.key().serverId(), notification.method());
    }
}
