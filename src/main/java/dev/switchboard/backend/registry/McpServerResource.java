package dev.switchboard.backend.registry;

import dev.switchboard.backend.connection.BackendConnections;
import dev.switchboard.backend.connection.BackendFailureText;
import dev.switchboard.backend.connection.ConnectionTestResult;
import dev.switchboard.backend.tools.ToolAliasRegistry;
import dev.switchboard.mcp.McpException;
import dev.switchboard.platform.ApiError;
import dev.switchboard.security.CurrentUser;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.core.Context;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** The MCP client system's MCP server API: {@code /api/mcp-servers}. */
@Path("/mcp-servers")
@RolesAllowed({"admin", "user"})
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "MCP servers", description = "Register MCP servers, test them, list their tools")
public class McpServerResource {

    @Inject
    CurrentUser user;

    @Inject
    McpServerRegistry registry;

    @Inject
    McpServerView view;

    @Inject
    BackendConnections connections;

    @Inject
    ToolAliasRegistry aliases;

    @GET
    @Operation(summary = "The caller's servers and the servers shared in the tenant, with live connection status")
    public JsonObject list() {
        JsonArrayBuilder data = JSON.createArrayBuilder();
        for (McpServer server : registry.visible(user)) {
            data.add(withStatus(server));
        }
        return JSON.createObjectBuilder().add("data", data).build();
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "One server")
    public JsonObject get(@PathParam("id") long id) {
        return withStatus(registry.findVisible(user, id)).build();
    }

    @POST
    @Operation(summary = "Register a server (stdio servers and shared servers: admins only)")
    public Response create(JsonObject body, @Context UriInfo uri) {
        McpServer server = registry.create(user, McpServerInput.parse(body));
        return Response.created(uri.getAbsolutePathBuilder().path(String.valueOf(server.getId())).build())
                .entity(withStatus(server).build()).build();
    }

    @PUT
    @Path("/{id}")
    @Operation(summary = "Change a server; fields left out stay as they are, masked secrets echoed back stay unchanged")
    public JsonObject update(@PathParam("id") long id, JsonObject body) {
        return withStatus(registry.update(user, id, McpServerInput.parse(body))).build();
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Delete a server and drop its connections")
    public Response delete(@PathParam("id") long id) {
        registry.delete(user, id);
        return Response.noContent().build();
    }

    @POST
    @Path("/{id}/connect")
    @Operation(summary = "Test the connection: a real initialize and tools/list")
    public JsonObject connect(@PathParam("id") long id) {
        McpServer server = registry.findVisible(user, id);
        ConnectionTestResult result = connections.test(user.subject(), server, registry.specSource(server, user),
                user.isAdmin());
        return result.toJson().build();
    }

    @GET
    @Path("/{id}/tools")
    @Operation(summary = "The server's tools with their LLM-facing names, enabled and auto-approve flags")
    public Response tools(@PathParam("id") long id) {
        McpServer server = registry.findVisible(user, id);
        List<JsonObject> tools;
        try {
            tools = connections.tools(user.subject(), server, registry.specSource(server, user));
        } catch (McpException e) {
            return ApiError.response(Response.Status.BAD_GATEWAY, "MCP server '" + server.getName()
                    + "' is not reachable: " + BackendFailureText.forCaller(e, user.isAdmin()), "backend_error",
                    e.kind() == McpException.Kind.ADDRESS_DENIED ? "address_not_allowed" : "backend_unavailable");
        }
        List<String> names = tools.stream().map(t -> t.getString("name", "")).toList();
        Map<String, String> displayNames = aliases.displayNames(server.getId(), server.getName(), names,
                registry.visibleIds(user));
        Set<String> disabled = new HashSet<>(registry.disabledTools(server));
        Set<String> autoApprove = new HashSet<>(registry.autoApproveTools(server));
        JsonArrayBuilder data = JSON.createArrayBuilder();
        for (JsonObject tool : tools) {
            String name = tool.getString("name", "");
            data.add(JSON.createObjectBuilder()
                    .add("serverId", server.getId())
                    .add("serverName", server.getName())
                    .add("name", name)
                    .add("displayName", displayNames.get(name))
                    .add("description", tool.getString("description", ""))
                    .add("inputSchema", tool.containsKey("inputSchema") ? tool.get("inputSchema")
                            : JSON.createObjectBuilder().add("type", "object").build())
                    .add("isEnabled", !disabled.contains(name))
                    .add("isAutoApprove", autoApprove.contains(name)));
        }
        return Response.ok(JSON.createObjectBuilder().add("data", data).build()).build();
    }

    private JsonObjectBuilder withStatus(McpServer server) {
        var status = connections.status(user.subject(), server.getId(), user.isAdmin());
        JsonObjectBuilder json = view.toJson(server).add("status", status.state());
        if (status.lastError() != null) {
            json.add("lastError", status.lastError());
        }
        if (status.toolCount() >= 0) {
            json.add("toolCount", status.toolCount());
        }
        return json;
    }
}
