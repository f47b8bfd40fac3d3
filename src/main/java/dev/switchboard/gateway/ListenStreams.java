package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The open {@code subscriptions/listen} streams of stateless (MCP 2026-07-28) clients, by caller: the relays hand
 * them the list changes of the caller's backends as they hand them to the caller's sessions. Each stream gets only
 * the kinds its client opted in to, each notification stamped with the stream's subscription id (the listen
 * request's id); a stream of {@code /mcp/servers/{name}} only its backend's.
 */
public final class ListenStreams {

    /** Streams one caller may hold open at once; one more is refused. */
    public static final int MAX_PER_CALLER = 32;
    public static final String SUBSCRIPTION_ID_KEY = "io.modelcontextprotocol/subscriptionId";
    private static final Map<String, String> KIND_OF = Map.of("notifications/tools/list_changed", "toolsListChanged",
            "notifications/prompts/list_changed", "promptsListChanged", "notifications/resources/list_changed", "resourcesListChanged");

    /**
     * One open stream.
     *
     * @param serverId the backend of a passthrough's stream; null on {@code /mcp}
     * @param kinds    the notification kinds it agreed to ({@code toolsListChanged}, ...)
     */
    public record Listener(String subject, String serverId, JsonValue subscriptionId, Set<String> kinds,
                           Consumer<JsonRpcMessage> sink) {
    }

    private final Map<String, Set<Listener>> bySubject = new ConcurrentHashMap<>();

    /** Opens a stream; empty when the caller holds {@link #MAX_PER_CALLER} already. The runnable closes it. */
    public Optional<Runnable> add(Listener listener) {
        Set<Listener> mine = bySubject.computeIfAbsent(listener.subject(), s -> ConcurrentHashMap.newKeySet());
        synchronized (mine) {
            if (mine.size() >= MAX_PER_CALLER) {
                return Optional.empty();
            }
            mine.add(listener);
        }
        return Optional.of(() -> {
            synchronized (mine) {
                mine.remove(listener);
            }
        });
    }

    /** The kinds of list change streams can agree to, from a {@code SubscriptionFilter}: those asked for with true. */
    public static Set<String> honoured(JsonObject filter) {
        return KIND_OF.values().stream().filter(kind -> filter.getBoolean(kind, false)).collect(java.util.stream.Collectors.toSet());
    }

    /** A backend of the caller announced a list change ({@code method}): the streams that want it are told. */
    void changed(String subject, String serverId, String method) {
        String kind = KIND_OF.get(method);
        Set<Listener> mine = bySubject.get(subject);
        if (kind == null || mine == null) {
            return;
        }
        for (Listener listener : Set.copyOf(mine)) {
            if (listener.kinds().contains(kind) && (listener.serverId() == null || listener.serverId().equals(serverId))) {
                listener.sink().accept(JsonRpcMessage.notification(method, JSON.createObjectBuilder()
                        .add("_meta", JSON.createObjectBuilder().add(SUBSCRIPTION_ID_KEY, listener.subscriptionId())).build()));
            }
        }
    }
}
