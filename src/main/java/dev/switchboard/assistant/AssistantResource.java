package dev.switchboard.assistant;

import dev.switchboard.platform.ApiException;
import dev.switchboard.platform.BodyFields;
import dev.switchboard.security.CurrentUser;
import dev.switchboard.platform.json.WholeNumbers;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** {@code /api/assistants} and the MCP client system's {@code /api/assistants/{id}/mcp-servers}. */
@Path("/assistants")
@RolesAllowed({"admin", "user"})
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Assistants", description = "Assistants and the MCP servers they use")
public class AssistantResource {

    @Inject
    CurrentUser user;

    @Inject
    AssistantService assistants;

    @GET
    @Operation(summary = "The caller's assistants")
    public JsonObject list() {
        JsonArrayBuilder data = JSON.createArrayBuilder();
        assistants.list(user).forEach(a -> data.add(toJson(a)));
        return JSON.createObjectBuilder().add("data", data).build();
    }

    @GET
    @Path("/{id}")
    public JsonObject get(@PathParam("id") long id) {
        return toJson(assistants.find(user, id)).build();
    }

    @POST
    public Response create(JsonObject body, @Context UriInfo uri) {
        Assistant assistant = assistants.create(user, AssistantInput.parse(body), optionalServerIds(body));
        return Response.created(uri.getAbsolutePathBuilder().path(String.valueOf(assistant.getId())).build())
                .entity(toJson(assistant).build()).build();
    }

    @PUT
    @Path("/{id}")
    public JsonObject update(@PathParam("id") long id, JsonObject body) {
        return toJson(assistants.update(user, id, AssistantInput.parse(body), optionalServerIds(body))).build();
    }

    @DELETE
    @Path("/{id}")
    public Response delete(@PathParam("id") long id) {
        assistants.delete(user, id);
        return Response.noContent().build();
    }

    @GET
    @Path("/{id}/mcp-servers")
    @Operation(summary = "Ids of the MCP servers the assistant uses")
    public JsonObject servers(@PathParam("id") long id) {
        return serversJson(assistants.servers(user, id));
    }

    @PUT
    @Path("/{id}/mcp-servers")
    @Operation(summary = "Replace the assistant's MCP servers: {\"mcpServerIds\": [1, 2]}")
    public JsonObject setServers(@PathParam("id") long id, JsonObject body) {
        BodyFields fields = BodyFields.of(body, Set.of("mcpServerIds"));
        assistants.setServers(user, id, serverIds(fields.required("mcpServerIds")));
        return serversJson(assistants.servers(user, id));
    }

    private static List<Long> optionalServerIds(JsonObject body) {
        return body.containsKey("mcpServerIds") ? serverIds(body.get("mcpServerIds")) : null;
    }

    private static List<Long> serverIds(JsonValue value) {
        if (!(value instanceof JsonArray array)) {
            throw BodyFields.wrongType("mcpServerIds", "an array of server ids", value);
        }
        List<Long> ids = new ArrayList<>();
        for (JsonValue item : array) {
            ids.add(WholeNumbers.asLong(item).orElseThrow(() -> BodyFields.wrongType("mcpServerIds", "an array of server ids", value)));
        }
        return ids;
    }

    private static JsonObject serversJson(List<Long> ids) {
        JsonArrayBuilder array = JSON.createArrayBuilder();
        ids.forEach(array::add);
        return JSON.createObjectBuilder().add("mcpServerIds", array).build();
    }

    private static JsonObjectBuilder toJson(Assistant a) {
        JsonArrayBuilder servers = JSON.createArrayBuilder();
        a.getMcpServerIds().forEach(servers::add);
        JsonObjectBuilder json = JSON.createObjectBuilder()
                .add("id", a.getId())
                .add("userId", a.getUserId())
                .add("name", a.getName())
                .add("knowledgeBaseEnabled", a.isKnowledgeBaseEnabled())
                .add("mcpServerIds", servers)
                .add("createdAt", a.getCreatedAt())
                .add("updatedAt", a.getUpdatedAt());
        addIfPresent(json, "description", a.getDescription());
        addIfPresent(json, "systemPrompt", a.getSystemPrompt());
        addIfPresent(json, "model", a.getModel());
        return json;
    }

    private static void addIfPresent(JsonObjectBuilder json, String key, String value) {
        if (value != null) {
            json.add(key, value);
        }
    }
}
