package dev.switchboard.gateway.catalog;

import dev.switchboard.gateway.ToolCatalog;
import dev.switchboard.platform.QueryParameters;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The filters of {@code GET /api/gateway/tools}, validated: a backend by its gateway name, text in the tool's public
 * name, title or description (any case), an annotation hint the tool carries, and whether {@code /mcp} offers it.
 *
 * @param server     the backend's gateway name (the prefix of its tools), or null for every backend
 * @param text       lower-case text to find, or null
 * @param annotation one of {@link #ANNOTATIONS}, or null
 * @param status     {@code offered} or {@code hidden} (by the tenant's policy), or null for both
 */
record ToolFilter(String server, String text, String annotation, String status) {

    static final String OFFERED = "offered";
    static final String HIDDEN = "hidden";
    private static final int MAX_TEXT = 200;

    /**
     * Each hint as the MCP specification reads a tool's annotations: a hint the tool leaves out takes the
     * specification's default (destructive and open-world unless said otherwise), and destructive means nothing
     * for a read-only tool.
     */
    private static final Map<String, Predicate<JsonObject>> ANNOTATIONS = Map.of(
            "readOnly", a -> hint(a, "readOnlyHint", false),
            "destructive", a -> !hint(a, "readOnlyHint", false) && hint(a, "destructiveHint", true),
            "idempotent", a -> hint(a, "idempotentHint", false),
            "openWorld", a -> hint(a, "openWorldHint", true));

    static ToolFilter of(String server, String q, String annotation, String status) {
        String text = QueryParameters.text("q", q, MAX_TEXT);
        return new ToolFilter(QueryParameters.absent(server) ? null : server.strip(),
                text == null ? null : text.toLowerCase(Locale.ROOT),
                QueryParameters.oneOf("annotation", annotation, ANNOTATIONS.keySet()),
                QueryParameters.oneOf("status", status, Set.of(OFFERED, HIDDEN)));
    }

    boolean matches(ToolCatalog.Entry entry, String entryStatus) {
        JsonObject tool = entry.tool();
        return (server == null || server.equals(entry.backend().name()))
                && (status == null || status.equals(entryStatus))
                && (annotation == null || ANNOTATIONS.get(annotation).test(annotationsOf(tool)))
                && (text == null || contains(entry.name().exposed(), text) || contains(tool.getString("title", null), text)
                || contains(tool.getString("description", null), text));
    }

    static JsonObject annotationsOf(JsonObject tool) {
        return tool.get("annotations") instanceof JsonObject annotations ? annotations : JsonValue.EMPTY_JSON_OBJECT;
    }

    private static boolean hint(JsonObject annotations, String name, boolean fallback) {
        JsonValue value = annotations.get(name);
        if (value == null || (value.getValueType() != JsonValue.ValueType.TRUE && value.getValueType() != JsonValue.ValueType.FALSE)) {
            return fallback;
        }
        return value.getValueType() == JsonValue.ValueType.TRUE;
    }

    private static boolean contains(String field, String text) {
        return field != null && field.toLowerCase(Locale.ROOT).contains(text);
    }
}
