package dev.switchboard.cluster;

import java.io.Serial;

/** A client's {@code notifications/cancelled}: stops the request if it is served on the member this runs on. */
final class HandCancel extends ForHoldingMember implements Runnable {

    @Serial
    private static final long serialVersionUID = 1L;

    private final String requestIdKey;

    HandCancel(String sessionId, String subject, String requestIdKey) {
        super(sessionId, subject);
        this.requestIdKey = requestIdKey;
    }

    @Override
    public void run() {
        receiver().ifPresent(receiver -> receiver.takeCancel(sessionId, subject, requestIdKey));
    }
}
