package dev.switchboard.observability;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.Map;

/**
 * W3C trace context on the MCP and REST endpoints: a valid {@code traceparent} from the caller is continued, a
 * missing or malformed one is replaced by a new trace (never an error: tracing must not refuse work). The response
 * carries this gateway's {@code traceparent} and the bare {@code X-Trace-Id}, set before the servlet runs so streamed
 * answers have them too.
 */
@WebFilter(urlPatterns = {"/mcp", "/mcp/*", "/api/*"}, asyncSupported = true)
public class TraceFilter extends HttpFilter {

    public static final String TRACE_ID_HEADER = "X-Trace-Id";

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        TraceContext trace = TraceContext.continuingOrNew(request.getHeader(TraceContext.HEADER));
        response.setHeader(TraceContext.HEADER, trace.traceparent());
        response.setHeader(TRACE_ID_HEADER, trace.traceId());
        try (TraceScope ignored = TraceScope.open(trace, Map.of())) {
            chain.doFilter(request, response);
        }
    }
}
