package dev.switchboard.platform;

import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.io.IOException;

/**
 * Refuses REST request bodies larger than {@code switchboard.api.max-body-bytes} (1 MiB by default) before any
 * of them is read, so an unauthenticated client cannot make the server buffer megabytes. It supports async
 * requests (it does nothing after the chain): streamed chat completions are answered asynchronously.
 */
@WebFilter(urlPatterns = "/api/*", asyncSupported = true)
public class RequestBodyLimitFilter extends HttpFilter {

    @Inject
    @ConfigProperty(name = "switchboard.api.max-body-bytes", defaultValue = "1048576")
    long maxBodyBytes;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long length = request.getContentLengthLong();
        boolean chunked = length < 0 && "chunked".equalsIgnoreCase(request.getHeader("Transfer-Encoding"));
        if (length > maxBodyBytes || chunked) {
            response.setStatus(chunked ? HttpServletResponse.SC_LENGTH_REQUIRED : 413);
            response.setContentType("application/json");
            String message = chunked ? "Send the request body with a Content-Length"
                    : "Request body of " + length + " bytes exceeds the limit of " + maxBodyBytes + " bytes";
            response.getWriter().write(ApiError.body(message, "invalid_request_error",
                    chunked ? "length_required" : "request_too_large").toString());
            return;
        }
        chain.doFilter(request, response);
    }
}
