package dev.switchboard.security;

import jakarta.inject.Inject;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Serves the protected resource metadata of the MCP endpoints (RFC 9728) without authentication, as clients read it
 * before they have a token: {@code /.well-known/oauth-protected-resource/mcp} and
 * {@code .../mcp/servers/{name}}; the bare {@code /.well-known/oauth-protected-resource} describes {@code /mcp}.
 * Any other path is 404.
 */
@WebServlet(urlPatterns = {ProtectedResourceMetadata.WELL_KNOWN, ProtectedResourceMetadata.WELL_KNOWN + "/*"})
public class ProtectedResourceServlet extends HttpServlet {

    private static final Pattern MCP_PATH = Pattern.compile("/mcp(/servers/[A-Za-z0-9_.-]{1,64})?");

    @Inject
    ProtectedResourceMetadata metadata;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getPathInfo() == null || request.getPathInfo().equals("/") ? "/mcp" : request.getPathInfo();
        if (!MCP_PATH.matcher(path).matches()) {
            response.sendError(404);
            return;
        }
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        // clients fetch it from their own pages' origins too (browser-based MCP clients)
        response.setHeader("Access-Control-Allow-Origin", "*");
        response.setHeader("Cache-Control", "max-age=300");
        response.getOutputStream().write(metadata.document(request, path).toString().getBytes(StandardCharsets.UTF_8));
    }
}
