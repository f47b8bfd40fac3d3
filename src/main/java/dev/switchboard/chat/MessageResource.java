package dev.switchboard.chat;

import dev.switchboard.platform.ApiException;
import dev.switchboard.security.CallerIdentity;
import dev.switchboard.security.CurrentUser;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.io.StringReader;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** One stored message: where its run stands, and the MCP client system's confirm step for its pending tool calls. */
@Path("/messages")
@RolesAllowed({"admin", "user"})
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Chat", description = "OpenAI-compatible chat completions that run the assistant's MCP tools")
public class MessageResource {

    @Inject
    CurrentUser user;

    @Inject
    ApprovalStore approvals;

    @Inject
    ApprovalSignals signals;

    @GET
    @Path("/{id}")
    @Operation(summary = "A message with the status of each tool call, and 'state': running, awaiting_approval or finished")
    public JsonObject get(@PathParam("id") long id) {
        ChatMessage message = approvals.find(CallerIdentity.of(user), id);
        return MessageJson.of(message).add("conversationId", message.getConversationId()).add("state", state(message)).build();
    }

    @POST
    @Path("/{id}/tool-confirm")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Approve (optionally with edited arguments) or reject a pending tool call of a running message")
    public JsonObject confirm(@PathParam("id") long id, JsonObject body) {
        if (body == null || !(body.get("toolCallId") instanceof JsonString toolCallId) || toolCallId.getString().isBlank()) {
            throw ApiException.badRequest("missing_field", "'toolCallId' (a string) is required");
        }
        JsonValue approved = body.get("approved");
        if (approved != JsonValue.TRUE && approved != JsonValue.FALSE) {
            throw ApiException.badRequest("invalid_type", "'approved' must be true or false");
        }
        JsonValue arguments = body.get("arguments");
        boolean noArguments = arguments == null || arguments.getValueType() == JsonValue.ValueType.NULL;
        if (!noArguments && !(arguments instanceof JsonObject)) {
            throw ApiException.badRequest("invalid_arguments", "'arguments' must be a JSON object");
        }
        ToolCallRecord decided = approvals.decide(CallerIdentity.of(user), id, toolCallId.getString(), approved == JsonValue.TRUE,
                noArguments ? null : arguments.asJsonObject()).orThrow();
        signals.signal(id);
        return decided.toJson();
    }

    private static String state(ChatMessage message) {
        if (message.getFinishReason() != null) {
            return "finished";
        }
        String calls = message.getToolCallsJson();
        boolean pending = calls != null && JSON.createReader(new StringReader(calls)).readArray().stream()
                .anyMatch(c -> "pending".equals(c.asJsonObject().getString("status")));
        return pending ? "awaiting_approval" : "running";
    }
}
