package dev.switchboard.gateway.modern;

import dev.switchboard.mcp.ModernProtocol;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.List;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The answer to {@code server/discover}, made from what the endpoint answers a session-era {@code initialize} (the
 * union of the caller's backends on {@code /mcp}, the one backend's own on {@code /mcp/servers/{name}}). It offers
 * what a stateless client gets through the gateway: list changes through {@code subscriptions/listen} (on {@code /mcp}
 * for tools, prompts and resources, whose lists the gateway relays; on a passthrough as its backend says), no resource
 * subscriptions ({@code subscribe}), no log messages and no tasks.
 */
final class DiscoverAnswer {

    private DiscoverAnswer() {
    }

    /**
     * @param aggregated whether the endpoint is {@code /mcp}, which answers every list itself (empty when no backend
     *                   offers the feature), so it offers tools, prompts and resources always
     */
    static JsonObject of(JsonObject initializeResult, List<String> supported, boolean aggregated, JsonObjectBuilder result) {
        JsonObject capabilities = initializeResult.getJsonObject("capabilities");
        if (aggregated) {
            JsonObjectBuilder all = JSON.createObjectBuilder(capabilities);
            for (String listed : List.of("tools", "prompts", "resources")) {
                if (!capabilities.containsKey(listed)) {
                    all.add(listed, JsonValue.EMPTY_JSON_OBJECT);
                }
            }
            capabilities = all.build();
        }
        result.add("supportedVersions", JSON.createArrayBuilder(supported))
                .add("capabilities", offered(capabilities, aggregated))
                .add("_meta", JSON.createObjectBuilder().add(ModernProtocol.SERVER_INFO_KEY, initializeResult.getJsonObject("serverInfo")))
                .add(ModernProtocol.RESULT_TYPE, ModernProtocol.COMPLETE);
        if (initializeResult.get("instructions") instanceof JsonString instructions) {
            result.add("instructions", instructions);
        }
        return result.build();
    }

    private static JsonObject offered(JsonObject capabilities, boolean aggregated) {
        JsonObjectBuilder offered = JSON.createObjectBuilder(capabilities).remove("logging").remove("tasks");
        for (String feature : List.of("tools", "prompts", "resources")) {
            if (capabilities.get(feature) instanceof JsonObject settings) {
                JsonObjectBuilder kept = JSON.createObjectBuilder(settings).remove("subscribe");
                if (aggregated) {
                    kept.add("listChanged", true);
                }
                offered.add(feature, kept);
            }
        }
        return offered.build();
    }
}
