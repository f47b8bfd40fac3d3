package dev.switchboard.chat;

import dev.switchboard.platform.ApiException;
import dev.switchboard.security.CallerIdentity;
import dev.switchboard.platform.BodyFields;
import dev.switchboard.security.CurrentUser;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.Set;
import java.io.StringReader;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** One stored message: where its run stands, and the MCP client system's confirm step for its pending tool calls. */
@Path("/messages")
@RolesAllowed({"admin", "user"})
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Chat", description = "OpenAI-compatible chat completions that run the assistant's MCP tools")
public class MessageResource {

    private static final Set<String> CONFIRM_FIELDS = Set.of("toolCallId", "approved", "arguments");

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
        BodyFields fields = BodyFields.of(body, CONFIRM_FIELDS);
        String toolCallId = fields.requiredString("toolCallId");
        if (toolCallId.isBlank()) {
            throw ApiException.badRequest("invalid_tool_call_id", "'toolCallId' must not be blank");
        }
        boolean approved = fields.requiredBool("approved");
        JsonObject arguments = fields.object("arguments");
        ToolCallRecord decided = approvals.decide(CallerIdentity.of(user), id, toolCallId, approved, arguments).orThrow();
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
