package dev.switchboard.chat;

import dev.switchboard.platform.ApiException;
import dev.switchboard.security.CurrentUser;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The OpenAI-compatible {@code POST /api/chat/completions}. No {@code @Produces}: OpenAI SDKs send
 * {@code Accept: application/json} even for streams, and the body's {@code stream} flag decides the answer's type.
 * <p>
 * Streams that can begin are answered by {@link ChatStreamServlet} before JAX-RS; it forwards every other request
 * here (blocking answers, and every refusal), so the checks and error answers of this resource stay the only ones.
 */
@Path("/chat/completions")
@RolesAllowed({"admin", "user"})
@Tag(name = "Chat", description = "OpenAI-compatible chat completions that run the assistant's MCP tools")
public class ChatResource {

    @Inject
    CurrentUser user;

    @Inject
    ChatService chat;

    /**
     * Streams are answered asynchronously: the request is checked and prepared on the container's thread, and the
     * stream is written from a thread of {@link ChatService}'s own. A stream lasts as long as the model talks, and
     * holding a container thread for each made 50 concurrent streams wait seconds for Liberty to grow its pool.
     */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "A chat completion; with an assistant (assistant_id or X-Assistant-Id) its auto-approved MCP tools run in an agent loop")
    public void complete(JsonObject body, @HeaderParam("X-Assistant-Id") String assistantHeader, @Suspended AsyncResponse response) {
        try {
            if (body == null) {
                throw ApiException.badRequest("missing_body", "A JSON body with 'messages' is required");
            }
            ChatRequest request = ChatRequest.parse(body, assistantHeader);
            PreparedRun run = chat.prepare(user, request);
            if (request.stream()) {
                StreamingOutput events = out -> chat.stream(run, out);
                Response stream = Response.ok(events, "text/event-stream; charset=utf-8")
                        .header("Cache-Control", "no-cache")
                        .header("X-Accel-Buffering", "no")
                        .build();
                chat.onStreamThread(() -> response.resume(stream));
                return;
            }
            response.resume(Response.ok(chat.complete(run), MediaType.APPLICATION_JSON_TYPE).build());
        } catch (RuntimeException e) {
            // mapped by the exception mappers, as if thrown by a synchronous method
            response.resume(e);
        }
    }
}
