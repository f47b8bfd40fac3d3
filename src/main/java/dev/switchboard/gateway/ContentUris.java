package dev.switchboard.gateway;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Resource URIs inside a backend's answers on the aggregated endpoint: the {@code resource_link} blocks and embedded
 * {@code resource} blocks of a tool result's {@code content} and of a prompt's messages name the backend's own URIs,
 * which the client can only read back through the gateway as {@link ResourceUri}s. Everything else in the answer
 * passes unchanged, and an answer without such blocks is returned as the same object (no copy on the hot path).
 */
final class ContentUris {

    private ContentUris() {
    }

    /** A {@code tools/call} result with the URIs of its content blocks exposed. */
    static JsonObject inToolResult(String backend, JsonObject result) {
        if (!(result.get("content") instanceof JsonArray content) || !anyNamesAResource(content)) {
            return result;
        }
        return JSON.createObjectBuilder(result).add("content", exposeAll(backend, content)).build();
    }

    /** A {@code prompts/get} result with the URIs of its messages' content blocks exposed. */
    static JsonObject inPrompt(String backend, JsonObject result) {
        if (!(result.get("messages") instanceof JsonArray messages) || messages.stream()
                .noneMatch(m -> m instanceof JsonObject o && namesAResource(o.get("content")))) {
            return result;
        }
        var exposed = JSON.createArrayBuilder();
        for (JsonValue message : messages) {
            exposed.add(message instanceof JsonObject m && namesAResource(m.get("content"))
                    ? JSON.createObjectBuilder(m).add("content", expose(backend, m.getJsonObject("content"))).build()
                    : message);
        }
        return JSON.createObjectBuilder(result).add("messages", exposed).build();
    }

    private static boolean anyNamesAResource(JsonArray content) {
        for (JsonValue block : content) {
            if (namesAResource(block)) {
                return true;
            }
        }
        return false;
    }

    private static boolean namesAResource(JsonValue block) {
        return block instanceof JsonObject o && o.get("type") instanceof JsonString type
                && ("resource_link".equals(type.getString()) && o.get("uri") instanceof JsonString
                || "resource".equals(type.getString()) && o.get("resource") instanceof JsonObject r && r.get("uri") instanceof JsonString);
    }

    private static JsonArray exposeAll(String backend, JsonArray content) {
        var exposed = JSON.createArrayBuilder();
        for (JsonValue block : content) {
            exposed.add(namesAResource(block) ? expose(backend, block.asJsonObject()) : block);
        }
        return exposed.build();
    }

    private static JsonObject expose(String backend, JsonObject block) {
        if (block.get("uri") instanceof JsonString uri) {
            return JSON.createObjectBuilder(block).add("uri", new ResourceUri(backend, uri.getString()).exposed()).build();
        }
        JsonObject resource = block.getJsonObject("resource");
        return JSON.createObjectBuilder(block).add("resource", JSON.createObjectBuilder(resource)
                .add("uri", new ResourceUri(backend, resource.getString("uri")).exposed())).build();
    }
}
