package dev.switchboard.gateway;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import java.util.Collection;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The server capabilities of the aggregated endpoint: a feature is offered when at least one backend offers it.
 * Tools are always offered (an empty list is a fine answer). Every {@code listChanged} is declared because the
 * gateway passes each backend's list changes on to the GET stream; {@code subscribe} only when a backend supports
 * it. Features the gateway does not route (tasks, experimental) are not offered, whatever the backends say.
 */
public final class CapabilityUnion {

    private CapabilityUnion() {
    }

    public static JsonObject of(Collection<JsonObject> backendCapabilities) {
        JsonObjectBuilder union = JSON.createObjectBuilder()
                .add("tools", JSON.createObjectBuilder().add("listChanged", true));
        if (any(backendCapabilities, "resources")) {
            boolean subscribe = backendCapabilities.stream().anyMatch(c -> c.get("resources") instanceof JsonObject r
                    && r.getBoolean("subscribe", false));
            JsonObjectBuilder resources = JSON.createObjectBuilder().add("listChanged", true);
            if (subscribe) {
                resources.add("subscribe", true);
            }
            union.add("resources", resources);
        }
        if (any(backendCapabilities, "prompts")) {
            union.add("prompts", JSON.createObjectBuilder().add("listChanged", true));
        }
        if (any(backendCapabilities, "completions")) {
            union.add("completions", JsonValue.EMPTY_JSON_OBJECT);
        }
        if (any(backendCapabilities, "logging")) {
            union.add("logging", JsonValue.EMPTY_JSON_OBJECT);
        }
        return union.build();
    }

    static boolean offers(JsonObject capabilities, String feature) {
        return capabilities.get(feature) instanceof JsonObject;
    }

    private static boolean any(Collection<JsonObject> backendCapabilities, String feature) {
        return backendCapabilities.stream().anyMatch(c -> offers(c, feature));
    }
}
