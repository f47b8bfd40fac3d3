package dev.switchboard.platform.drain;

import dev.switchboard.platform.ApiError;
import jakarta.inject.Inject;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
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

    /**
     * Set on a request once it went through here: {@code /mcp} matches two of the patterns, and the container runs the
     * filter once for each, which counted every call twice (seen in ClusterDrainIT).
     */
    static final String SEEN = DrainFilter.class.getName();

    @Inject
    Drain drain;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (request.getAttribute(SEEN) != null) {
            chain.doFilter(request, response);
            return;
        }
        request.setAttribute(SEEN, Boolean.TRUE);
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
        TicketOnAsync watched = new TicketOnAsync(request, ticket);
        try {
            chain.doFilter(watched, response);
        } finally {
            // once the servlet went asynchronous, the listener frees the ticket when the response is complete
            if (!watched.startedAsync) {
                if (request.isAsyncStarted()) {
                    request.getAsyncContext().addListener(new ClosesTicket(ticket));
                } else {
                    ticket.close();
                }
            }
        }
    }

    /**
     * Hands the ticket to the request's async listeners at the moment the servlet goes asynchronous: asking
     * {@code isAsyncStarted()} once the servlet has returned is not reliable (a response completed meanwhile on another
     * thread, or a container that answers false there, would free the ticket while the call still runs).
     */
    private static final class TicketOnAsync extends HttpServletRequestWrapper {

        private final InFlight.Ticket ticket;
        private volatile boolean startedAsync;

        TicketOnAsync(HttpServletRequest request, InFlight.Ticket ticket) {
            super(request);
            this.ticket = ticket;
        }

        @Override
        public AsyncContext startAsync() {
            return watch(super.startAsync());
        }

        @Override
        public AsyncContext startAsync(ServletRequest request, ServletResponse response) {
            return watch(super.startAsync(request, response));
        }

        private AsyncContext watch(AsyncContext async) {
            if (!startedAsync) {
                startedAsync = true;
                async.addListener(new ClosesTicket(ticket));
            }
            return async;
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
