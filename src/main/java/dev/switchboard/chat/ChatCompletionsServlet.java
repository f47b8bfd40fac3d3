package dev.switchboard.chat;

import dev.switchboard.platform.ApiError;
import dev.switchboard.platform.ApiException;
import dev.switchboard.platform.JsonBodyReader;
import dev.switchboard.platform.UnexpectedExceptionMapper;
import dev.switchboard.security.CallerAdmission;
import dev.switchboard.security.CurrentUser;
import dev.switchboard.security.Role;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.Response;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

/**
 * The one entry of seed 003's OpenAI-compatible {@code POST /api/chat/completions}: the caller is checked once
 * ({@link CallerAdmission}, the answers of {@code @RolesAllowed({"admin","user"})}), the body is read once (by
 * {@link JsonBodyReader}, the reader of every JAX-RS endpoint, then {@link ChatRequest}), and the answer is a stream
 * or a whole completion as the body's {@code stream} flag says (OpenAI SDKs send {@code Accept: application/json}
 * even for streams). Refusals have the REST API's error shape.
 * <p>
 * A servlet rather than a JAX-RS resource for the stream's first byte: RESTEasy's per-request work (dispatch, the
 * {@code AsyncResponse} and its executor look-up, the response writer) and the hand-off before the first byte were the
 * largest share of a stream's CPU on the request thread (bench/README.md, "Chat first byte round 3"). Here the role
 * chunk is written from the request's own thread before the stream moves to one of {@link ChatService}'s. The
 * exact mapping takes precedence over the JAX-RS application's {@code /api/*}; the servlet filters (trace, body
 * limit) have run by then. The OpenAPI document describes the endpoint from {@code META-INF/openapi.yaml}.
 */
@WebServlet(urlPatterns = "/api/chat/completions", asyncSupported = true)
public class ChatCompletionsServlet extends HttpServlet {

    private static final Set<String> CHAT_ROLES = Set.of(Role.ADMIN.claim(), Role.USER.claim());
    @SuppressWarnings("unchecked")
    private static final Class<JsonValue> OBJECT = (Class<JsonValue>) (Class<?>) JsonObject.class;

    @Inject
    CurrentUser user;

    @Inject
    CallerAdmission admission;

    @Inject
    ChatService chat;

    private final JsonBodyReader bodies = new JsonBodyReader();
    private final UnexpectedExceptionMapper unexpected = new UnexpectedExceptionMapper();

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!"POST".equals(request.getMethod())) {
            response.setHeader("Allow", "POST, OPTIONS");
            if ("OPTIONS".equals(request.getMethod())) {
                response.setStatus(HttpServletResponse.SC_NO_CONTENT);
                return;
            }
            write(response, ApiError.response(Response.Status.METHOD_NOT_ALLOWED,
                    "Method Not Allowed: use POST", "invalid_request_error", "method_not_allowed"));
            return;
        }
        if (!isJson(request.getContentType())) {
            write(response, ApiError.response(Response.Status.UNSUPPORTED_MEDIA_TYPE,
                    "Unsupported Media Type: send the body as application/json", "invalid_request_error", "unsupported_media_type"));
            return;
        }
        Response refusal = admission.refusal(request, user, CHAT_ROLES);
        if (refusal != null) {
            write(response, refusal);
            return;
        }
        PreparedRun run;
        ChatRequest chatRequest;
        try {
            chatRequest = ChatRequest.parse(body(request), request.getHeader("X-Assistant-Id"));
            run = chat.prepare(user, chatRequest);
            if (!chatRequest.stream()) {
                write(response, Response.ok(chat.complete(run), MediaType.APPLICATION_JSON_TYPE).build());
                return;
            }
        } catch (ApiException e) {
            write(response, e.toResponse());
            return;
        } catch (WebApplicationException e) {
            write(response, e.getResponse());
            return;
        } catch (RuntimeException e) {
            write(response, unexpected.toResponse(e));
            return;
        }
        stream(request, response, run);
    }

    /** The body as one JSON object, read by the reader every JAX-RS endpoint uses, with the same refusals. */
    private JsonObject body(HttpServletRequest request) throws IOException {
        byte[] bytes = request.getInputStream().readAllBytes();
        return (JsonObject) bodies.readFrom(OBJECT, JsonObject.class, new Annotation[0], MediaType.APPLICATION_JSON_TYPE,
                new MultivaluedHashMap<>(), new ByteArrayInputStream(bytes));
    }

    /**
     * Streams are answered asynchronously: the role chunk goes out from this thread, and the rest is written from a
     * thread of {@link ChatService}'s own. A stream lasts as long as the model talks, and holding a container thread
     * for each made 50 concurrent streams wait seconds for Liberty to grow its pool.
     */
    private void stream(HttpServletRequest request, HttpServletResponse response, PreparedRun run) throws IOException {
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

    private static boolean isJson(String contentType) {
        return contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("application/json");
    }

    /** Writes an answer built as a JAX-RS response (status, headers, a JSON entity) to the servlet response. */
    private static void write(HttpServletResponse response, Response answer) throws IOException {
        response.setStatus(answer.getStatus());
        answer.getStringHeaders().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("Content-Type")) {
                values.forEach(value -> response.addHeader(name, value));
            }
        });
        Object entity = answer.getEntity();
        if (entity == null) {
            return;
        }
        response.setContentType(MediaType.APPLICATION_JSON);
        byte[] json = entity.toString().getBytes(StandardCharsets.UTF_8);
        response.setContentLength(json.length);
        response.getOutputStream().write(json);
    }
}
