package dev.switchboard.backend.pool;

import jakarta.json.JsonObject;

import java.util.List;

/** A notification one pooled backend session received, with the session it came from. */
public record BackendNotification(PoolKey key, String method, JsonObject params) {

    /** The notifications the pool passes on; {@code tools/list_changed} has its own listener, as it drops a cache. */
    public static final List<String> RELAYED = List.of("notifications/resources/updated",
            "notifications/resources/list_changed", "notifications/prompts/list_changed", "notifications/message",
            "notifications/elicitation/complete");
}
