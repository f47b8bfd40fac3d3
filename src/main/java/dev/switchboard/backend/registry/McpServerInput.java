package dev.switchboard.backend.registry;

import dev.switchboard.platform.ApiException;
import dev.switchboard.platform.BodyFields;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The body of {@code POST}/{@code PUT /api/mcp-servers}, type-checked field by field. A null field was
 * absent (PUT leaves it as it is). Unknown fields are refused so a typo never passes silently.
 * The MCP client system's snake_case column names are accepted as aliases of the camelCase fields.
 */
public record McpServerInput(String name, String type, Boolean isActive, String baseUrl,
                             Map<String, String> headers, Integer timeout, String command, List<String> args,
                             Map<String, String> env, List<String> disabledTools, List<String> autoApproveTools,
                             String scope) {

    private static final Map<String, String> ALIASES = Map.of(
            "is_active", "isActive", "base_url", "baseUrl", "disabled_tools", "disabledTools",
            "auto_approve_tools", "autoApproveTools", "url", "baseUrl");
    private static final Set<String> FIELDS = Set.of("name", "type", "isActive", "baseUrl", "headers", "timeout",
            "command", "args", "env", "disabledTools", "autoApproveTools", "scope");
    /** Read-only fields a client may echo back from a GET; ignored. */
    private static final Set<String> ECHOED = Set.of("id", "userId", "createdAt", "updatedAt", "status", "lastError",
            "toolCount");

    public static McpServerInput parse(JsonObject body) {
        JsonObjectBuilder named = JSON.createObjectBuilder();
        Set<String> seen = new HashSet<>();
        for (var entry : body.entrySet()) {
            String key = ALIASES.getOrDefault(entry.getKey(), entry.getKey());
            if (FIELDS.contains(key) && !seen.add(key)) {
                throw ApiException.badRequest("duplicate_field", "Field '" + key + "' given twice (under two names)");
            }
            named.add(FIELDS.contains(key) ? key : entry.getKey(), entry.getValue());
        }
        BodyFields fields = BodyFields.of(named.build(), FIELDS, ECHOED);
        return new McpServerInput(fields.string("name"), fields.string("type"), fields.bool("isActive"),
                fields.string("baseUrl"), stringMap(fields, "headers"), timeout(fields),
                fields.string("command"), fields.strings("args"), stringMap(fields, "env"),
                fields.strings("disabledTools"), fields.strings("autoApproveTools"), fields.string("scope"));
    }

    private static Integer timeout(BodyFields fields) {
        Long seconds = fields.integer("timeout");
        if (seconds != null && (seconds > Integer.MAX_VALUE || seconds < Integer.MIN_VALUE)) {
            throw fields.wrongType("timeout", "a whole number of seconds");
        }
        return seconds == null ? null : seconds.intValue();
    }

    private static Map<String, String> stringMap(BodyFields fields, String key) {
        JsonObject object = fields.object(key);
        if (object == null) {
            return null;
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (var entry : object.entrySet()) {
            if (!(entry.getValue() instanceof JsonString s)) {
                throw BodyFields.wrongType(key + "." + entry.getKey(), "a string", entry.getValue());
            }
            map.put(entry.getKey(), s.getString());
        }
        return map;
    }
}
