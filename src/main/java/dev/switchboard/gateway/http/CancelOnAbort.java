package dev.switchboard.gateway.http;

import dev.switchboard.gateway.GatewaySession;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;

import java.util.function.BooleanSupplier;

/**
 * Cancels a request whose HTTP exchange timed out, or whose JSON exchange broke: nobody is left to read its answer.
 * A broken SSE exchange is not a cancellation (the spec says so): the client may resume it with {@code Last-Event-ID}.
 */
final class CancelOnAbort implements AsyncListener {

    private final GatewaySession.InFlight request;
    private final BooleanSupplier resumable;

    /** @param resumable whether the exchange is, at the time it breaks, a stream the client may resume */
    CancelOnAbort(GatewaySession.InFlight request, BooleanSupplier resumable) {
        this.request = request;
        this.resumable = resumable;
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        request.cancel();
    }

    @Override
    public void onError(AsyncEvent event) {
        if (!resumable.getAsBoolean()) {
            request.cancel();
        }
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
