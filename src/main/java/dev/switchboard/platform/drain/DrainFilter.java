package dev.switchboard.platform.drain;

import dev.switchboard.platform.ApiError;
import jakarta.inject.Inject;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.Optional;

/**
 * The door of the work a drain waits for: while this member drains, every new {@code /mcp} and chat completion request
 * is refused with 503, {@code Retry-After} and a JSON error, so the client (or the load balancer) tries another
 * member. Admitted requests other than GET hold a ticket until their response is complete, also when it is answered
 * asynchronously (a streamed call or chat run). A GET is a stream, not a call: the drain ends it instead of waiting.
 */
@WebFilter(urlPatterns = {"/mcp", "/mcp/*", "/api/chat/completions"}, asyncSupported = true)
public class DrainFilter extends HttpFilter {

    static final String REFUSAL = "This Switchboard member is stopping and takes no new requests: retry in "
            + Drain.RETRY.toSeconds() + " s, another member will answer";

    @Inject
    Drain drain;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        Optional<InFlight.Ticket> admitted = drain.admit();
        if (admitted.isEmpty()) {
            refuse(response);
            return;
        }
        InFlight.Ticket ticket = admitted.get();
        if ("GET".equals(request.getMethod())) {
            ticket.close();
            chain.doFilter(request, response);
            return;
        }
        try {
            chain.doFilter(request, response);
        } finally {
            if (request.isAsyncStarted()) {
                request.getAsyncContext().addListener(new ClosesTicket(ticket));
            } else {
                ticket.close();
            }
        }
    }

    static void refuse(HttpServletResponse response) throws IOException {
        response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        response.setHeader("Retry-After", String.valueOf(Drain.RETRY.toSeconds()));
        response.setHeader("Connection", "close");
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(ApiError.body(REFUSAL, "unavailable_error", "member_stopping").toString());
    }

    /** Frees the ticket of an asynchronous response once it is complete, however it ends. */
    private record ClosesTicket(InFlight.Ticket ticket) implements AsyncListener {

        @Override
        public void onComplete(AsyncEvent event) {
            ticket.close();
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            ticket.close();
        }

        @Override
        public void onError(AsyncEvent event) {
            ticket.close();
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            event.getAsyncContext().addListener(this);
        }
    }
}
