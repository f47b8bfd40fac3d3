package dev.switchboard.chat;

import dev.switchboard.security.ApiKeyCheck;
import dev.switchboard.security.CurrentUser;
import dev.switchboard.security.Role;
import jakarta.inject.Inject;
import jakarta.json.JsonReader;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ReadListener;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Set;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The fast path of {@code POST /api/chat/completions} with {@code stream: true}: an authenticated caller with a
 * chat role, a JSON object body and a run that prepares without error is answered here, without JAX-RS, and the
 * role chunk is written from the request's own thread before the stream moves to one of {@link ChatService}'s.
 * RESTEasy's per-request work (dispatch, the {@code AsyncResponse} and its executor look-up, the response writer)
 * and the hand-off before the first byte were the largest share of a stream's CPU on the request thread
 * (bench/README.md, "Chat first byte round 3").
 * <p>
 * Everything else (no token, another role, a revoked API key, a body that is not a JSON object or not
 * {@code application/json}, a request that is not a stream, a run that cannot be prepared) is forwarded with its body
 * to {@link ChatResource}, which answers exactly as it always has: its checks and error mappers stay the only ones.
 * The exact mapping takes precedence over the JAX-RS application's {@code /api/*}; the servlet filters (trace,
 * body limit) have run by then.
 */
@WebServlet(urlPatterns = "/api/chat/completions", asyncSupported = true)
public class ChatStreamServlet extends HttpServlet {

    private static final Set<String> CHAT_ROLES = Set.of(Role.ADMIN.claim(), Role.USER.claim());

    @Inject
    CurrentUser user;

    @Inject
    ApiKeyCheck apiKeyCheck;

    @Inject
    ChatService chat;

    private String jaxRsServlet;

    @Override
    public void init() throws ServletException {
        jaxRsServlet = getServletContext().getServletRegistrations().values().stream()
                .filter(registration -> registration.getMappings().contains("/api/*")).map(ServletRegistration::getName)
                .findFirst().orElseThrow(() -> new ServletException("no JAX-RS servlet mapped to /api/* to forward chat completions to"));
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        if (!"POST".equals(request.getMethod()) || !isJson(request.getContentType())) {
            forward(request, response, null);
            return;
        }
        byte[] body = request.getInputStream().readAllBytes();
        PreparedRun run = prepared(body, request.getHeader("X-Assistant-Id"));
        if (run == null) {
            forward(request, response, body);
            return;
        }
        AsyncContext async = request.startAsync();
        // a stream lasts as long as the model talks; the provider's read timeout guards a silent one
        async.setTimeout(0);
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType("text/event-stream; charset=utf-8");
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("X-Accel-Buffering", "no");
        ServletOutputStream out = response.getOutputStream();
        ChunkStream chunks = new ChunkStream(out, run.identity());
        try {
            chunks.role();
        } catch (UncheckedIOException e) {
            async.complete();
            return;
        }
        chat.onStreamThread(() -> {
            try {
                chat.streamAfterRole(run, chunks);
            } finally {
                async.complete();
            }
        });
    }

    /** What {@code @RolesAllowed} and {@code ApiKeyFilter} let through to {@link ChatResource}. */
    private boolean mayChat() {
        return user.isAuthenticated() && user.roles().stream().anyMatch(CHAT_ROLES::contains) && !apiKeyCheck.rejects(user);
    }

    /**
     * The run of a streamed request from a caller who may chat, or null when {@link ChatResource} is to answer (or
     * refuse) the request. The body is read before the caller is checked, so an answer that is not a stream costs no
     * second API-key look-up; nothing of the run is prepared before the check.
     */
    private PreparedRun prepared(byte[] body, String assistantHeader) {
        try (JsonReader reader = JSON.createReader(new ByteArrayInputStream(body))) {
            ChatRequest request = ChatRequest.parse(reader.readObject(), assistantHeader);
            return request.stream() && mayChat() ? chat.prepare(user, request) : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static boolean isJson(String contentType) {
        return contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("application/json");
    }

    private void forward(HttpServletRequest request, HttpServletResponse response, byte[] readBody) throws ServletException, IOException {
        RequestDispatcher jaxRs = getServletContext().getNamedDispatcher(jaxRsServlet);
        jaxRs.forward(readBody == null ? request : new ReadBody(request, readBody), response);
    }

    /** The request with the body this servlet already read, for {@link ChatResource} to read again. */
    private static final class ReadBody extends HttpServletRequestWrapper {

        private final byte[] body;

        ReadBody(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new IllegalStateException("the body is already read; read it blocking");
                }

                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }
            };
        }
    }
}
