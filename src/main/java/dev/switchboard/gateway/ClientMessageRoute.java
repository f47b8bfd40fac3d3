package dev.switchboard.gateway;

import jakarta.json.JsonObject;

/**
 * Where a client's response or {@code notifications/cancelled} goes when this instance does not hold what it names.
 * A single instance holds every request it sent and every call it serves ({@link LocalClientMessages}); in cluster
 * mode {@code cluster.ClusterClientMessages} replaces it and hands them to the member that does, which takes them
 * with {@link ClientMessages#answerHere} and {@link ClientMessages#cancelHere}.
 */
public interface ClientMessageRoute {

    /** This instance's name in the ids of its requests to clients ({@link ClientRequestIds}). */
    String member();

    /**
     * Hands a response to the member that sent the request it answers, for the session {@code sessionId} of
     * {@code subject} (the caller this instance verified); what became of it there.
     */
    AnswerOutcome answerAt(String member, String sessionId, String subject, JsonObject response);

    /** Cancels the session's request (its id's JSON text) on whichever other member serves it; no answer. */
    void cancelElsewhere(String sessionId, String subject, String requestIdKey);
}
