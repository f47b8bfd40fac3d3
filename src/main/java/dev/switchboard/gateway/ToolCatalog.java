package dev.switchboard.gateway;

import dev.switchboard.backend.access.BackendAccess;
import dev.switchboard.backend.tools.GatewayToolName;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.logging.Logger;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The tools of all of a caller's backends in one stable order (backend name, then the backend's own order), fetched
 * in parallel. A backend that fails or does not answer within the listing deadline is left out and logged: one
 * broken backend must not hide every other one.
 */
public final class ToolCatalog {

    private static final Logger LOG = Logger.getLogger(ToolCatalog.class.getName());
    /** MCP Apps: where a tool's user interface is read from (SEP-1865), and the key its drafts used. */
    private static final String UI_RESOURCE_URI = "resourceUri";
    private static final String LEGACY_UI_RESOURCE_URI = "ui/resourceUri";

    /** One listed tool: its backend, its index in that backend's list, the raw tool and its gateway name. */
    public record Entry(GatewayBackend backend, int index, JsonObject tool, GatewayToolName name) {

        /**
         * The backend's tool object untouched but for its name and the resource its MCP Apps user interface is
         * read from ({@code _meta.ui.resourceUri}, and the older {@code _meta["ui/resourceUri"]}): a {@code ui://}
         * URI of the backend's becomes the URI the aggregated endpoint lists and reads it under.
         */
        public JsonObject exposedTool() {
            JsonObjectBuilder exposed = JSON.createObjectBuilder(tool).add("name", name.exposed());
            if (tool.get("_meta") instanceof JsonObject meta) {
                JsonObjectBuilder rewritten = JSON.createObjectBuilder(meta);
                if (meta.get("ui") instanceof JsonObject ui && ui.get(UI_RESOURCE_URI) instanceof JsonString uri) {
                    rewritten.add("ui", JSON.createObjectBuilder(ui).add(UI_RESOURCE_URI, exposedUri(uri)));
                }
                if (meta.get(LEGACY_UI_RESOURCE_URI) instanceof JsonString uri) {
                    rewritten.add(LEGACY_UI_RESOURCE_URI, exposedUri(uri));
                }
                exposed.add("_meta", rewritten);
            }
            return exposed.build();
        }

        private String exposedUri(JsonString uri) {
            return new ResourceUri(backend.name(), uri.getString()).exposed();
        }
    }

    private final List<Entry> entries;
    private final Set<GatewayBackend> answered;

    private ToolCatalog(List<Entry> entries, Set<GatewayBackend> answered) {
        this.entries = entries;
        this.answered = answered;
    }

    public static ToolCatalog fetch(List<GatewayBackend> backends, BackendAccess access, Executor executor,
                                    Duration listTimeout) {
        List<GatewayBackend> ordered = backends.stream().sorted(Comparator.comparing(GatewayBackend::name)).toList();
        List<Entry> entries = new ArrayList<>();
        Map<GatewayBackend, List<JsonObject>> listed = BackendFanOut.collect(ordered, executor, listTimeout, "tools/list",
                access::listTools);
        listed.forEach((backend, tools) -> add(entries, backend, tools));
        return new ToolCatalog(List.copyOf(entries), Set.copyOf(listed.keySet()));
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

    /** Whether the backend listed its tools in time (a backend that failed or was too slow is in no entry). */
    public boolean answered(GatewayBackend backend) {
        return answered.contains(backend);
    }
}
