package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcPeer;
import dev.switchboard.mcp.McpException;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;

import static dev.switchboard.mcp.JsonRpcMessage.JSON;

/**
 * The tools of all of a caller's backends in one stable order (backend name, then the backend's own order), fetched
 * in parallel. A backend that fails or does not answer within the listing deadline is left out and logged: one
 * broken backend must not hide every other one.
 */
public final class ToolCatalog {

    private static final Logger LOG = Logger.getLogger(ToolCatalog.class.getName());

    /** One listed tool: its backend, its index in that backend's list, the raw tool and its gateway name. */
    public record Entry(GatewayBackend backend, int index, JsonObject tool, GatewayToolName name) {

        /** The backend's tool object untouched but for its name. */
        public JsonObject exposedTool() {
            return JSON.createObjectBuilder(tool).add("name", name.exposed()).build();
        }
    }

    private final List<Entry> entries;

    private ToolCatalog(List<Entry> entries) {
        this.entries = entries;
    }

    public static ToolCatalog fetch(List<GatewayBackend> backends, BackendAccess access, Executor executor,
                                    Duration listTimeout) {
        List<GatewayBackend> ordered = backends.stream().sorted(Comparator.comparing(GatewayBackend::name)).toList();
        List<CompletableFuture<List<JsonObject>>> listings = new ArrayList<>();
        for (GatewayBackend backend : ordered) {
            Duration timeout = backend.timeout().compareTo(listTimeout) < 0 ? backend.timeout() : listTimeout;
            listings.add(listAsync(backend, access, executor, timeout));
        }
        long deadline = System.nanoTime() + listTimeout.toNanos();
        List<Entry> entries = new ArrayList<>();
        for (int b = 0; b < ordered.size(); b++) {
            GatewayBackend backend = ordered.get(b);
            try {
                long wait = Math.max(0, deadline - System.nanoTime());
                add(entries, backend, listings.get(b).get(wait, TimeUnit.NANOSECONDS));
            } catch (InterruptedException e) {
                // the request was cancelled: what was listed so far is all it gets
                Thread.currentThread().interrupt();
                break;
            } catch (ExecutionException | TimeoutException e) {
                String reason = e instanceof TimeoutException ? "no answer within " + listTimeout.toMillis() + " ms"
                        : JsonRpcPeer.asMcpException(e.getCause()).getMessage();
                LOG.warning(() -> "tools/list leaves out backend " + backend.name() + ": " + reason);
            }
        }
        return new ToolCatalog(List.copyOf(entries));
    }

    private static CompletableFuture<List<JsonObject>> listAsync(GatewayBackend backend, BackendAccess access,
                                                                 Executor executor, Duration timeout) {
        try {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return access.listTools(backend, timeout);
                } catch (McpException e) {
                    throw new CompletionException(e);
                }
            }, executor);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(new McpException(McpException.Kind.CANCELLED, "no thread free to list it"));
        }
    }

    private static void add(List<Entry> entries, GatewayBackend backend, List<JsonObject> tools) {
        for (int i = 0; i < tools.size(); i++) {
            JsonObject tool = tools.get(i);
            String toolName = tool.getString("name", null);
            if (toolName == null || backend.disabledTools().contains(toolName)) {
                continue;
            }
            GatewayToolName name = new GatewayToolName(backend.name(), toolName);
            if (!name.isValid()) {
                LOG.warning(() -> "tools/list leaves out " + backend.name() + " tool '" + toolName
                        + "': '" + name.exposed() + "' is not a valid MCP tool name");
                continue;
            }
            entries.add(new Entry(backend, i, tool, name));
        }
    }

    public List<Entry> entries() {
        return entries;
    }
}
