package dev.switchboard.cluster;

import dev.switchboard.gateway.AnswerOutcome;

import java.io.Serial;
import java.util.concurrent.Callable;

/** A client's response to a request of the member it runs on: the name of its {@link AnswerOutcome} there. */
final class HandAnswer extends ForHoldingMember implements Callable<String> {

    @Serial
    private static final long serialVersionUID = 1L;

    private final String response;

    HandAnswer(String sessionId, String subject, String response) {
        super(sessionId, subject);
        this.response = response;
    }

    @Override
    public String call() throws Exception {
        ClusterClientMessages receiver = receiver().orElse(null);
        return receiver == null ? AnswerOutcome.NOT_WAITING.name() : receiver.take(sessionId, subject, response);
    }
}
