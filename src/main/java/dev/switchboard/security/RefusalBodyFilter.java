package dev.switchboard.security;

import dev.switchboard.platform.ApiError;
import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.json.JsonObject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Gives a body to the refusals Liberty's MicroProfile JWT answers itself. mpJwt refuses a missing or bad bearer token
 * after the application's filters ran, with a 401 (or 403) and no body; this filter looks at the response after the
 * chain, and when it is such a refusal (401 or 403, not committed, no content type: every refusal of the application
 * has one) writes what is wrong: the reason found by {@link TokenRefusalReason}, in the REST API's error shape, or on
 * the MCP endpoints as a JSON-RPC error without id (as that transport shows HTTP-level refusals). Only refused
 * requests are looked at again; mpJwt's status and challenge stay.
 */
@WebFilter(urlPatterns = {"/api/*", "/mcp", "/mcp/*"}, asyncSupported = true)
public class RefusalBodyFilter extends HttpFilter {

    /** JSON-RPC's "Invalid Request", what the MCP endpoints answer for an HTTP-level refusal. */
    private static final int INVALID_REQUEST = -32600;

    @Inject
    TokenRefusalReason reasons;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        chain.doFilter(request, response);
        int status = response.getStatus();
        if ((status != 401 && status != 403) || response.isCommitted() || response.getContentType() != null
                || request.isAsyncStarted()) {
            return;
        }
        boolean mcp = request.getRequestURI().startsWith(request.getContextPath() + "/mcp");
        String message;
        if (status == 401) {
            TokenRefusal refusal = reasons.of(request.getHeader("Authorization"));
            response.setStatus(refusal.status());
            response.setHeader("WWW-Authenticate", refusal.challenge());
            message = refusal.message();
            write(response, mcp ? jsonRpc("Unauthorized: " + message) : ApiError.body(message, refusal.type(), refusal.code()));
        } else {
            message = "Forbidden: this caller may not use this endpoint";
            write(response, mcp ? jsonRpc(message) : ApiError.body(message, SecurityErrors.PERMISSION, "forbidden"));
        }
    }

    private static JsonObject jsonRpc(String message) {
        return JSON.createObjectBuilder().add("jsonrpc", "2.0").addNull("id").add("error", JSON.createObjectBuilder()
                .add("code", INVALID_REQUEST).add("message", message)).build();
    }

    private static void write(HttpServletResponse response, JsonObject body) throws IOException {
        response.resetBuffer();
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }
}
