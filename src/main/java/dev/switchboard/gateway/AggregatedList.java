package dev.switchboard.gateway;

import dev.switchboard.backend.access.BackendAccess;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * One of the lists the aggregated endpoint merges from every backend offering a feature ({@code resources/list},
 * {@code resources/templates/list}, {@code prompts/list}): each backend's items in its own order, backends by name,
 * every item renamed so it routes back, paged with a {@link ListCursor}. Backends are read in full (all their pages)
 * on each call, as their own cursors cannot be mixed into ours.
 *
 * @param method  the list method, sent to the backends unchanged
 * @param feature the capability a backend must declare to be asked
 * @param field   the result's array of items
 * @param rename  the item as the client sees it, or empty to leave it out
 */
record AggregatedList(String method, String feature, String field,
                      BiFunction<GatewayBackend, JsonObject, Optional<JsonObject>> rename) {

    /** Guards against a backend that hands out cursors forever. */
    private static final int MAX_PAGES = 1_000;

    private record Item(String backend, int index, JsonObject exposed) {
    }

    JsonRpcMessage answer(JsonRpcMessage request, List<GatewayBackend> backends, BackendAccess access, Executor executor,
                          GatewaySettings settings) {
        JsonValue cursorValue = request.params().get("cursor");
        Optional<ListCursor> from = Optional.empty();
        if (cursorValue != null && cursorValue != JsonValue.NULL) {
            from = cursorValue instanceof JsonString s ? ListCursor.decode(s.getString()) : Optional.empty();
            if (from.isEmpty()) {
                return GatewayErrors.error(request.id(), GatewayErrors.INVALID_PARAMS, "Invalid cursor", null);
            }
        }
        List<GatewayBackend> ordered = backends.stream().sorted(Comparator.comparing(GatewayBackend::name)).toList();
        List<Item> items = new ArrayList<>();
        BackendFanOut.collect(ordered, executor, settings.listTimeout(), method,
                        (backend, timeout) -> readAll(backend, access, timeout))
                .forEach((backend, listed) -> {
                    for (int i = 0; i < listed.size(); i++) {
                        int index = i;
                        rename.apply(backend, listed.get(i)).ifPresent(e -> items.add(new Item(backend.name(), index, e)));
                    }
                });
        Optional<ListCursor> start = from;
        List<Item> remaining = items.stream()
                .filter(item -> start.map(c -> c.isAtOrBefore(item.backend(), item.index())).orElse(true))
                .toList();
        var page = JSON.createArrayBuilder();
        remaining.stream().limit(settings.pageSize()).forEach(item -> page.add(item.exposed()));
        JsonObjectBuilder result = JSON.createObjectBuilder().add(field, page);
        if (remaining.size() > settings.pageSize()) {
            Item next = remaining.get(settings.pageSize());
            result.add("nextCursor", new ListCursor(next.backend(), next.index()).encode());
        }
        return JsonRpcMessage.result(request.id(), result.build());
    }

    /** Every item of one backend, following its cursors; nothing from a backend without the feature. */
    private List<JsonObject> readAll(GatewayBackend backend, BackendAccess access, Duration timeout) throws McpException {
        long deadline = System.nanoTime() + timeout.toNanos();
        if (!CapabilityUnion.offers(access.capabilities(backend, timeout), feature)) {
            return List.of();
        }
        List<JsonObject> all = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String cursor = null;
        for (int page = 0; page < MAX_PAGES; page++) {
            JsonObject params = cursor == null ? JsonValue.EMPTY_JSON_OBJECT
                    : JSON.createObjectBuilder().add("cursor", cursor).build();
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new McpException(McpException.Kind.TIMEOUT, method + ": deadline passed between pages");
            }
            JsonObject result = access.request(backend, method, params, Duration.ofNanos(left), null, null);
            if (result.get(field) instanceof JsonArray listed) {
                listed.stream().filter(JsonObject.class::isInstance).map(JsonObject.class::cast).forEach(all::add);
            }
            cursor = result.get("nextCursor") instanceof JsonString next ? next.getString() : null;
            if (cursor == null || !seen.add(cursor)) {
                return all;
            }
        }
        return all;
    }
}
