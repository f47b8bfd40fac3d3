package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import java.util.Optional;

/**
 * The client's messages that name something in flight: a response to a request the gateway sent it (matched by the
 * member in its id, {@link ClientRequestIds}) and {@code notifications/cancelled} (naming the client's own request).
 * What this instance holds is done here; the rest goes through the {@link ClientMessageRoute} to the member holding
 * it, which takes it with {@link #answerHere} or {@link #cancelHere}, for the same session and caller only.
 */
public final class ClientMessages {

    private final GatewaySessions sessions;
    private final ClientMessageRoute route;

    public ClientMessages(GatewaySessions sessions, ClientMessageRoute route) {
        this.sessions = sessions;
        this.route = route;
    }

    /** A response the client posted in its session. */
    public AnswerOutcome answer(GatewaySession session, JsonRpcMessage response) {
        Optional<String> member = ClientRequestIds.memberOf(idOf(response.json()));
        if (member.isEmpty()) {
            return AnswerOutcome.NOT_OURS;
        }
        if (member.get().equals(route.member())) {
            return answerIn(session, response);
        }
        return route.answerAt(member.get(), session.id(), session.subject(), response.json());
    }

    /** A response another member received in the caller's session, for a request this member sent. */
    public AnswerOutcome answerHere(String sessionId, String subject, JsonObject response) {
        return sessions.held(sessionId, subject).map(s -> answerIn(s, new JsonRpcMessage(response)))
                .orElse(AnswerOutcome.NOT_WAITING);
    }

    /** The client cancelled one of its requests: stopped here if served here, else wherever it is served. */
    public void cancel(GatewaySession session, String requestIdKey) {
        if (!session.cancel(requestIdKey)) {
            route.cancelElsewhere(session.id(), session.subject(), requestIdKey);
        }
    }

    /** A cancellation another member received in the caller's session; whether a request served here stopped. */
    public boolean cancelHere(String sessionId, String subject, String requestIdKey) {
        return sessions.held(sessionId, subject).map(s -> s.cancel(requestIdKey)).orElse(false);
    }

    /** The string id of a response; null when it has none (the gateway's ids are strings). */
    static String idOf(JsonObject response) {
        return response.get("id") instanceof JsonString s ? s.getString() : null;
    }

    private static AnswerOutcome answerIn(GatewaySession session, JsonRpcMessage response) {
        return session.clientRequests().answer(response) ? AnswerOutcome.DELIVERED : AnswerOutcome.NOT_WAITING;
    }
}
