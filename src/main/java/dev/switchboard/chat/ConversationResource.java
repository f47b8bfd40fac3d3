package dev.switchboard.chat;

import dev.switchboard.chat.events.EventId;
import dev.switchboard.platform.ApiException;
import dev.switchboard.security.CallerIdentity;
import dev.switchboard.security.CurrentUser;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The caller's stored conversations, their messages (the MCP client system's message storage) and the live events of
 * their tool calls; others' answer 404.
 */
@Path("/conversations")
@RolesAllowed({"admin", "user"})
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Chat", description = "OpenAI-compatible chat completions that run the assistant's MCP tools")
public class ConversationResource {

    @Inject
    CurrentUser user;

    @Inject
    ConversationStore store;

    @Inject
    ConversationWatchers watchers;

    @GET
    @Operation(summary = "The caller's conversations, most recent first")
    public JsonObject list() {
        JsonArrayBuilder data = Json.createArrayBuilder();
        store.list(CallerIdentity.of(user)).forEach(c -> data.add(toJson(c)));
        return Json.createObjectBuilder().add("data", data).build();
    }

    @GET
    @Path("/{id}/messages")
    @Operation(summary = "A conversation's messages in order; assistant messages carry their toolCalls records")
    public JsonObject messages(@PathParam("id") long id) {
        Conversation conversation = store.find(CallerIdentity.of(user), id);
        JsonArrayBuilder data = Json.createArrayBuilder();
        store.messages(conversation.getId()).forEach(m -> data.add(MessageJson.of(m)));
        return Json.createObjectBuilder().add("conversation", toJson(conversation)).add("data", data).build();
    }

    /**
     * Seed 004's broadcast of tool-call states to whoever watches the conversation (another tab, another device), as
     * server-sent events; {@code Last-Event-ID} resumes after the last event the client has.
     */
    @GET
    @Path("/{id}/events")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @Operation(summary = "Server-sent events of the conversation's tool calls: assistant.toolCall.updated and tool.message.updated "
            + "for every state change; resumable with Last-Event-ID")
    public void events(@PathParam("id") long id, @HeaderParam(HttpHeaders.LAST_EVENT_ID_HEADER) String lastEventId,
                       @Context SseEventSink sink, @Context Sse sse, @Context HttpServletRequest request) {
        Conversation conversation = store.find(CallerIdentity.of(user), id);
        EventId resumeAfter = lastEventId == null || lastEventId.isBlank() ? null : EventId.parse(lastEventId)
                .orElseThrow(() -> ApiException.badRequest("invalid_last_event_id", "Last-Event-ID '" + lastEventId
                        + "' is not an event id of this stream (expected <log>-<sequence>, as the stream's ids are)"));
        if (request.isAsyncStarted()) {
            // the container's timeout for asynchronous requests (30 s) would cut a stream that is meant to stay open;
            // keep-alives find the clients that have gone
            request.getAsyncContext().setTimeout(0);
        }
        watchers.open(conversation.getId(), resumeAfter, sink, sse);
    }

    private static JsonObjectBuilder toJson(Conversation c) {
        return Json.createObjectBuilder().add("id", c.getId())
                .add("title", nullable(c.getTitle()))
                .add("assistantId", c.getAssistantId() == null ? JsonValue.NULL : Json.createValue(c.getAssistantId()))
                .add("sessionId", nullable(c.getSessionId()))
                .add("createdAt", c.getCreatedAt())
                .add("updatedAt", c.getUpdatedAt());
    }

    private static JsonValue nullable(String value) {
        return value == null ? JsonValue.NULL : Json.createValue(value);
    }
}
