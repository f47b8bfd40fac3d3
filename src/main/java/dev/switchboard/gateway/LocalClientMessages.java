package dev.switchboard.gateway;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonObject;

/** A single instance: there is no other member, so what this instance does not hold is held nowhere. */
@ApplicationScoped
public class LocalClientMessages implements ClientMessageRoute {

    /** The member part of a single instance's request ids. */
    public static final String MEMBER = "local";

    @Override
    public String member() {
        return MEMBER;
    }

    @Override
    public AnswerOutcome answerAt(String member, String sessionId, String subject, JsonObject response) {
        return AnswerOutcome.NOT_OURS;
    }

    @Override
    public void cancelElsewhere(String sessionId, String subject, String requestIdKey) {
        // nobody else serves anything
    }
}
