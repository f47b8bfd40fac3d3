package dev.switchboard.chat;

import dev.switchboard.security.CallerIdentity;
import dev.switchboard.security.CurrentUser;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The caller's stored conversations and their messages (the MCP client system's message storage); others' answer 404. */
@Path("/conversations")
@RolesAllowed({"admin", "user"})
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Chat", description = "OpenAI-compatible chat completions that run the assistant's MCP tools")
public class ConversationResource {

    @Inject
    CurrentUser user;

    @Inject
    ConversationStore store;

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
