package dev.switchboard.sql.server;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * {@code POST /api/query/schema/refresh} (admins): forgets the cached schema of the query database at once (after a
 * DDL change) instead of waiting for {@code QUERY_SCHEMA_CACHE_TTL}; reads it again and answers {@code {"tables": n}}.
 * The search index follows on its next use.
 */
@Path("query/schema/refresh")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed("admin")
public class SchemaRefreshResource {

    @Inject
    QueryDatabase database;

    @POST
    public JsonObject refresh() {
        database.catalog().refresh();
        return JSON.createObjectBuilder().add("tables", database.catalog().tableNames().size()).build();
    }
}
