package dev.switchboard.sql.server;

import dev.switchboard.platform.ApiException;
import dev.switchboard.platform.BodyFields;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Set;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * {@code POST /api/query/system-status} (admins): the query dialect's {@code system.status} notification, e.g.
 * {@code {"status":"maintenance","message":"系统将在 5 分钟后进入维护模式","scheduled_at":"2025-01-20T12:00:00Z"}},
 * sent to every open dialect connection. Answers {@code {"delivered": n}}.
 */
@Path("query/system-status")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@RolesAllowed("admin")
public class SystemStatusResource {

    @Inject
    QueryDialectBean dialect;

    @POST
    public JsonObject broadcast(JsonObject body) {
        BodyFields fields = BodyFields.of(body, Set.of("status", "message", "scheduled_at"));
        String status = fields.requiredString("status");
        if (status.isBlank()) {
            throw ApiException.badRequest("invalid_status", "status is required, e.g. maintenance");
        }
        JsonObjectBuilder params = JSON.createObjectBuilder().add("status", status);
        String message = fields.string("message");
        if (message != null) {
            params.add("message", message);
        }
        String scheduledAt = fields.string("scheduled_at");
        if (scheduledAt != null) {
            try {
                params.add("scheduled_at", Instant.parse(scheduledAt).toString());
            } catch (DateTimeParseException e) {
                throw ApiException.badRequest("invalid_scheduled_at", "scheduled_at must be an ISO-8601 instant");
            }
        }
        return JSON.createObjectBuilder().add("delivered", dialect.broadcastStatus(params.build())).build();
    }
}
