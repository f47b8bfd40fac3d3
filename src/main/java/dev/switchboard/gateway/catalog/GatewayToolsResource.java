package dev.switchboard.gateway.catalog;

import dev.switchboard.gateway.GatewayBackend;
import dev.switchboard.gateway.GatewayToolListing;
import dev.switchboard.gateway.ListCursor;
import dev.switchboard.gateway.ToolCatalog;
import dev.switchboard.platform.ApiException;
import dev.switchboard.platform.QueryParameters;
import dev.switchboard.security.CurrentUser;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * {@code /api/gateway/tools} for admins: the aggregated tools of the caller's {@code /mcp}, searched, filtered and
 * paged on the server, for a console that must stay usable with hundreds of tools. Pages carry the position cursor
 * {@code tools/list} uses, so a backend that comes back between pages does not shift what was already read.
 */
@Path("/gateway/tools")
@RolesAllowed("admin")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Gateway")
public class GatewayToolsResource {

    private static final int DEFAULT_LIMIT = 50;
    private static final int MAX_LIMIT = 500;
    /** What a tool may say about itself beside its name, passed on when it has the right JSON type. */
    private static final List<String> OBJECT_FIELDS = List.of("inputSchema", "outputSchema", "annotations");
    private static final List<String> TEXT_FIELDS = List.of("title", "description");

    @Inject
    CurrentUser caller;

    @Inject
    GatewayToolListing listing;

    @GET
    @Operation(summary = "The tools /mcp aggregates for the caller, in tools/list order; filters: server (a backend's "
            + "gateway name), q (text in the public name, title or description), annotation (readOnly, destructive, "
            + "idempotent, openWorld), status (offered, hidden by the tenant's policy); page with limit (1-500, default "
            + "50) and cursor (the nextCursor of the previous page); total counts every tool the filters match, "
            + "backends says what each backend listed")
    public JsonObject list(@QueryParam("server") String server, @QueryParam("q") String q,
                           @QueryParam("annotation") String annotation, @QueryParam("status") String status,
                           @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        ToolFilter filter = ToolFilter.of(server, q, annotation, status);
        int size = QueryParameters.limit(limit, DEFAULT_LIMIT, MAX_LIMIT);
        Optional<ListCursor> from = position(cursor);
        GatewayToolListing.Listing listed = listing.of(caller);
        List<ToolCatalog.Entry> matching = listed.catalog().entries().stream()
                .filter(entry -> filter.matches(entry, statusOf(listed, entry))).toList();
        List<ToolCatalog.Entry> remaining = from.map(c -> matching.stream()
                .filter(entry -> c.isAtOrBefore(entry.backend().name(), entry.index())).toList()).orElse(matching);
        JsonArrayBuilder data = JSON.createArrayBuilder();
        remaining.stream().limit(size).forEach(entry -> data.add(json(entry, statusOf(listed, entry))));
        JsonObjectBuilder page = JSON.createObjectBuilder().add("data", data).add("total", matching.size())
                .add("backends", backends(listed));
        if (remaining.size() > size) {
            ToolCatalog.Entry next = remaining.get(size);
            page.add("nextCursor", new ListCursor(next.backend().name(), next.index()).encode());
        }
        return page.build();
    }

    private static Optional<ListCursor> position(String cursor) {
        if (QueryParameters.absent(cursor)) {
            return Optional.empty();
        }
        return Optional.of(ListCursor.decode(cursor.strip()).orElseThrow(() ->
                ApiException.badRequest("invalid_cursor", "'cursor' must be the nextCursor of an earlier page")));
    }

    private static String statusOf(GatewayToolListing.Listing listed, ToolCatalog.Entry entry) {
        return listed.offered(entry) ? ToolFilter.OFFERED : ToolFilter.HIDDEN;
    }

    private static JsonObject json(ToolCatalog.Entry entry, String status) {
        JsonObject tool = entry.tool();
        JsonObjectBuilder json = JSON.createObjectBuilder().add("name", entry.name().exposed())
                .add("backend", entry.backend().name()).add("serverId", entry.backend().serverId())
                .add("tool", entry.name().tool()).add("status", status);
        for (String field : TEXT_FIELDS) {
            if (tool.get(field) instanceof JsonString text) {
                json.add(field, text);
            }
        }
        for (String field : OBJECT_FIELDS) {
            if (tool.get(field) instanceof JsonObject object) {
                json.add(field, object);
            }
        }
        return json.build();
    }

    /** Every backend of the caller by name: how many tools it listed, or that it did not answer in time. */
    private static JsonArrayBuilder backends(GatewayToolListing.Listing listed) {
        Map<String, Long> counts = listed.catalog().entries().stream()
                .collect(Collectors.groupingBy(entry -> entry.backend().name(), Collectors.counting()));
        JsonArrayBuilder backends = JSON.createArrayBuilder();
        listed.backends().stream().sorted(Comparator.comparing(GatewayBackend::name)).forEach(backend -> backends.add(
                JSON.createObjectBuilder().add("name", backend.name()).add("serverId", backend.serverId())
                        .add("answered", listed.catalog().answered(backend))
                        .add("toolCount", counts.getOrDefault(backend.name(), 0L))));
        return backends;
    }
}
