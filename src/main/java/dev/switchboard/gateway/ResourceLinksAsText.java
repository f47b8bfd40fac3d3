package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.ServerRequestHandler;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.function.Consumer;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Serves a client of a protocol version before 2025-06-18, which has no {@code resource_link} content blocks: the
 * gateway speaks the latest version to its backends, so their tool results and prompt messages may carry links that
 * such a client's schema forbids and its SDK may reject. Each link becomes a text block naming the resource and its
 * URI (which the client can still read with {@code resources/read}); every other block passes unchanged.
 */
final class ResourceLinksAsText implements McpRouter {

    /** The first version with {@code resource_link}. */
    static final String LINKS_SINCE = "2025-06-18";

    private final McpRouter router;

    ResourceLinksAsText(McpRouter router) {
        this.router = router;
    }

    /** Whether a session of this version needs its links translated. */
    static boolean neededFor(String protocolVersion) {
        return protocolVersion.compareTo(LINKS_SINCE) < 0;
    }

    @Override
    public JsonObject initializeResult(String protocolVersion) {
        return router.initializeResult(protocolVersion);
    }

    @Override
    public JsonRpcMessage handle(JsonRpcMessage request, Consumer<JsonObject> progress, ServerRequestHandler clientRequests) {
        JsonRpcMessage response = router.handle(request, progress, clientRequests);
        if (!(response.json().get("result") instanceof JsonObject result)) {
            return response;
        }
        JsonObject translated = switch (request.method()) {
            case "tools/call" -> result.get("content") instanceof JsonArray content && hasLink(content)
                    ? JSON.createObjectBuilder(result).add("content", withoutLinks(content)).build() : result;
            case "prompts/get" -> result.get("messages") instanceof JsonArray messages ? inMessages(result, messages) : result;
            default -> result;
        };
        return translated == result ? response : JsonRpcMessage.result(request.id(), translated);
    }

    private static JsonObject inMessages(JsonObject result, JsonArray messages) {
        if (messages.stream().noneMatch(m -> m instanceof JsonObject o && isLink(o.get("content")))) {
            return result;
        }
        var translated = JSON.createArrayBuilder();
        for (JsonValue message : messages) {
            translated.add(message instanceof JsonObject m && isLink(m.get("content"))
                    ? JSON.createObjectBuilder(m).add("content", asText(m.getJsonObject("content"))).build() : message);
        }
        return JSON.createObjectBuilder(result).add("messages", translated).build();
    }

    private static boolean hasLink(JsonArray content) {
        return content.stream().anyMatch(ResourceLinksAsText::isLink);
    }

    private static JsonArray withoutLinks(JsonArray content) {
        var translated = JSON.createArrayBuilder();
        for (JsonValue block : content) {
            translated.add(isLink(block) ? asText(block.asJsonObject()) : block);
        }
        return translated.build();
    }

    private static boolean isLink(JsonValue block) {
        return block instanceof JsonObject o && o.get("type") instanceof JsonString type && "resource_link".equals(type.getString());
    }

    /** "Resource {title or name}: {uri}", its description on the next line; its annotations kept. */
    private static JsonObject asText(JsonObject link) {
        String name = link.getString("title", link.getString("name", "resource"));
        StringBuilder text = new StringBuilder("Resource ").append(name).append(": ").append(link.getString("uri", ""));
        if (link.get("description") instanceof JsonString description) {
            text.append('\n').append(description.getString());
        }
        JsonObjectBuilder block = JSON.createObjectBuilder().add("type", "text").add("text", text.toString());
        if (link.get("annotations") instanceof JsonObject annotations) {
            block.add("annotations", annotations);
        }
        return block.build();
    }
}
