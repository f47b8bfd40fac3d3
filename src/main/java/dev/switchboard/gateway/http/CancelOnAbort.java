package dev.switchboard.gateway.http;

import dev.switchboard.gateway.GatewaySession;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;

/** Cancels a request whose HTTP exchange timed out or broke: nobody is left to read its answer. */
final class CancelOnAbort implements AsyncListener {

    private final GatewaySession.InFlight request;

    CancelOnAbort(GatewaySession.InFlight request) {
        this.request = request;
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        request.cancel();
    }

    @Override
    public void onError(AsyncEvent event) {
        request.cancel();
    }

    @Override
    public void onComplete(AsyncEvent event) {
        // answered normally
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // an exchange is started once
    }
}
