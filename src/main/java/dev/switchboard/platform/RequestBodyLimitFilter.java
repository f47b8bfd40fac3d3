package dev.switchboard.platform;

import jakarta.enterprise.inject.Instance;
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
 * of them is read, so an unauthenticated client cannot make the server buffer megabytes. Endpoints that take files
 * declare a larger limit of their own ({@link LargeBodies}). It supports async requests (it does nothing after the
 * chain): streamed chat completions are answered asynchronously.
 */
@WebFilter(urlPatterns = "/api/*", asyncSupported = true)
public class RequestBodyLimitFilter extends HttpFilter {

    @Inject
    @ConfigProperty(name = "switchboard.api.max-body-bytes", defaultValue = "1048576")
    long maxBodyBytes;

    @Inject
    Instance<LargeBodies> largeBodies;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long length = request.getContentLengthLong();
        boolean chunked = length < 0 && "chunked".equalsIgnoreCase(request.getHeader("Transfer-Encoding"));
        if (chunked) {
            refuse(response, HttpServletResponse.SC_LENGTH_REQUIRED, "length_required", "Send the request body with a Content-Length");
            return;
        }
        if (length > maxBodyBytes) {
            LargeBodies.BodyLimit larger = largerLimit(request);
            if (larger == null) {
                refuse(response, 413, "request_too_large", "Request body of " + length + " bytes exceeds the limit of "
                        + maxBodyBytes + " bytes");
                return;
            }
            if (length > larger.maxBytes()) {
                refuse(response, 413, larger.code(), larger.message());
                return;
            }
        }
        chain.doFilter(request, response);
    }

    private LargeBodies.BodyLimit largerLimit(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        for (LargeBodies bodies : largeBodies) {
            LargeBodies.BodyLimit limit = bodies.limitFor(request.getMethod(), path);
            if (limit != null) {
                return limit;
            }
        }
        return null;
    }

    private static void refuse(HttpServletResponse response, int status, String code, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.getWriter().write(ApiError.body(message, "invalid_request_error", code).toString());
    }
}
