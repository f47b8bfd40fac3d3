package dev.switchboard.chat;

import dev.switchboard.assistant.Assistant;
import dev.switchboard.assistant.AssistantService;
import dev.switchboard.backend.access.BackendAccess;
import dev.switchboard.backend.access.BackendAccesses;
import dev.switchboard.backend.registry.McpServer;
import dev.switchboard.backend.registry.McpServerRegistry;
import dev.switchboard.backend.tools.ToolAliasRegistry;
import dev.switchboard.backend.connection.BackendFailureText;
import dev.switchboard.mcp.McpException;
import dev.switchboard.observability.TraceScope;
import dev.switchboard.security.CurrentUser;
import dev.switchboard.workspace.Workspace;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Turns an assistant into the tools a run may use (the MCP client system: assistant's servers -> enabled tools -> model format),
 * and an invoker that calls them through the backend-access layer the gateway uses too ({@link BackendAccesses}: the
 * caller's pooled connections, each server's breaker and bulkhead, the request's trace).
 */
@ApplicationScoped
public class AssistantTools {

    private static final Logger LOG = Logger.getLogger(AssistantTools.class.getName());

    @Inject
    AssistantService assistants;

    @Inject
    McpServerRegistry registry;

    @Inject
    BackendAccesses backends;

    @Inject
    ToolAliasRegistry aliases;

    @Inject
    ChatMetrics metrics;

    /**
     * The setup for an assistant of the caller (404 if it is not theirs), or an empty one for null.
     *
     * @param workspace the session's workspace, where its stdio servers run (see {@link ServerRoute}); null without one
     */
    public ChatSetup setup(CurrentUser user, Long assistantId, Workspace workspace) {
        if (assistantId == null) {
            return ChatSetup.NONE;
        }
        Assistant assistant = assistants.find(user, assistantId);
        String subject = user.subject();
        boolean admin = user.isAdmin();
        List<Long> visibleIds = registry.visibleIds(user);
        Map<String, McpTool> tools = new LinkedHashMap<>();
        Map<Long, ServerRoute> routes = new HashMap<>();
        BackendAccess listing = backends.pooled(subject);
        for (long serverId : assistants.servers(user, assistantId)) {
            McpServer server = registry.findVisible(user, serverId);
            if (!server.isActive()) {
                continue;
            }
            ServerRoute route = ServerRoute.of(server, registry, user, workspace);
            routes.put(serverId, route);
            tools.putAll(toolsOf(listing, subject, route, visibleIds));
        }
        // tool calls run on the chat's own threads: the request's trace is taken along from here
        BackendAccess access = backends.of(subject, TraceScope.currentOrNew());
        ToolInvoker invoker = (tool, arguments) -> {
            ServerRoute route = routes.get(tool.serverId());
            long started = System.nanoTime();
            try {
                JsonObject result = access.callTool(route, tool.toolName(), arguments, route.timeout());
                metrics.toolCall(tool.displayName(), Duration.ofNanos(System.nanoTime() - started),
                        result.getBoolean("isError", false) ? ChatMetrics.TOOL_ERROR : null);
                return result;
            } catch (McpException e) {
                metrics.toolCall(tool.displayName(), Duration.ofNanos(System.nanoTime() - started),
                        ChatMetrics.TOOL_FAILED_PREFIX + e.kind().name().toLowerCase(Locale.ROOT));
                LOG.info(() -> "tool " + tool.displayName() + " of a chat of " + subject + " failed: " + e.kind() + " " + e.getMessage());
                // the answer goes to the caller, the model and the stored conversation: the caller's view of it
                throw BackendFailureText.asSeenBy(e, admin);
            }
        };
        return new ChatSetup(assistant.getId(), assistant.getSystemPrompt(), assistant.getModel(), tools, invoker,
                assistant.isKnowledgeBaseEnabled());
    }

    /** A server that cannot be reached contributes no tools: the run goes on with the others, and the log says why. */
    private Map<String, McpTool> toolsOf(BackendAccess listing, String subject, ServerRoute route, List<Long> visibleIds) {
        McpServer server = route.server();
        List<JsonObject> listed;
        try {
            listed = listing.listTools(route, route.timeout());
        } catch (McpException e) {
            LOG.warning(() -> "MCP server " + server.getId() + " ('" + server.getName() + "') offers no tools to a chat of "
                    + subject + ": " + e.kind() + " " + e.getMessage());
            return Map.of();
        }
        Set<String> disabled = new HashSet<>(registry.disabledTools(server));
        Set<String> autoApprove = new HashSet<>(registry.autoApproveTools(server));
        List<JsonObject> enabled = listed.stream().filter(t -> !disabled.contains(t.getString("name", ""))).toList();
        Map<String, String> names = aliases.displayNames(server.getId(), server.getName(),
                enabled.stream().map(t -> t.getString("name", "")).toList(), visibleIds);
        Map<String, McpTool> tools = new LinkedHashMap<>();
        for (JsonObject tool : enabled) {
            String name = tool.getString("name", "");
            JsonObject schema = tool.get("inputSchema") instanceof JsonObject s ? s : Json.createObjectBuilder().add("type", "object").build();
            tools.put(names.get(name), new McpTool(names.get(name), server.getId(), server.getName(), name,
                    tool.getString("description", ""), schema, autoApprove.contains(name)));
        }
        return tools;
    }
}
