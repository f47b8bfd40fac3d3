package dev.switchboard.gateway.record;

import dev.switchboard.backend.connection.BackendConnections;
import dev.switchboard.gateway.ClientSessions;
import dev.switchboard.platform.ApiException;
import dev.switchboard.security.CurrentUser;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * {@code /api/gateway/sessions} for admins: who is connected to the gateway, over what, with which client, and which
 * backend sessions each client session uses.
 */
@Path("/gateway/sessions")
@RolesAllowed("admin")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Gateway", description = "Recorded client sessions of /mcp and their backend sessions")
public class GatewaySessionsResource {

    private static final Set<String> STATES = Set.of("open", "ended");
    private static final Set<String> TRANSPORTS = Set.of(SessionRecorder.STREAMABLE_HTTP, SessionRecorder.WEBSOCKET,
            SessionRecorder.LEGACY_SSE);

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    CurrentUser caller;

    @Inject
    SessionRecords records;

    @Inject
    ClientSessions clients;

    @Inject
    BackendConnections connections;


    @GET
    @Operation(summary = "Client sessions, newest first, each with its backend sessions; filters: tenant, subject, "
            + "endpoint, transport (streamable_http, websocket, legacy_sse), state (open, ended); page with limit "
            + "(1-500, default 50) and cursor (the nextCursor of the previous page)")
    public JsonObject list(@QueryParam("tenant") String tenant, @QueryParam("subject") String subject,
                           @QueryParam("endpoint") String endpoint, @QueryParam("transport") String transport,
                           @QueryParam("state") String state, @QueryParam("limit") String limit,
                           @QueryParam("cursor") String cursor) {
        Map<String, Object> params = new LinkedHashMap<>();
        List<String> where = new ArrayList<>();
        where.add("s.tenantId = :tenant");
        params.put("tenant", caller.tenantToRead(tenant, "gateway sessions"));
        filter(where, params, "subject", subject);
        filter(where, params, "endpoint", endpoint);
        filter(where, params, "transport", oneOf("transport", transport, TRANSPORTS));
        String wanted = oneOf("state", state, STATES);
        if (wanted != null) {
            where.add(wanted.equals("open") ? "s.endedAt is null" : "s.endedAt is not null");
        }
        if (cursor != null) {
            where.add("s.id < :before");
            params.put("before", number("cursor", cursor));
        }
        int size = limit == null ? 50 : (int) number("limit", limit);
        if (size < 1 || size > 500) {
            throw ApiException.badRequest("invalid_limit", "'limit' must be between 1 and 500");
        }
        TypedQuery<RecordedSession> query = em.createQuery("select s from RecordedSession s where "
                + String.join(" and ", where) + " order by s.id desc", RecordedSession.class).setMaxResults(size + 1);
        params.forEach(query::setParameter);
        List<RecordedSession> found = query.getResultList();
        JsonArrayBuilder data = JSON.createArrayBuilder();
        found.stream().limit(size).forEach(s -> data.add(json(s)));
        JsonObjectBuilder page = JSON.createObjectBuilder().add("data", data);
        if (found.size() > size) {
            page.add("nextCursor", String.valueOf(found.get(size - 1).getId()));
        }
        return page.build();
    }

    private JsonObject json(RecordedSession s) {
        boolean live = clients.sessions().holds(s.getSessionId());
        JsonObjectBuilder client = JSON.createObjectBuilder();
        addIfPresent(client, "name", s.getClientName());
        addIfPresent(client, "version", s.getClientVersion());
        JsonObjectBuilder json = JSON.createObjectBuilder().add("id", s.getId()).add("sessionId", s.getSessionId())
                .add("tenant", s.getTenantId()).add("subject", s.getSubject()).add("endpoint", s.getEndpoint())
                .add("transport", s.getTransport()).add("protocolVersion", s.getProtocolVersion()).add("clientInfo", client)
                .add("state", s.getEndedAt() == null ? "open" : "ended").add("live", live)
                .add("createdAt", Instant.ofEpochMilli(s.getCreatedAt()).toString())
                .add("lastSeenAt", Instant.ofEpochMilli(s.getLastSeenAt()).toString());
        if (s.getEndedAt() != null) {
            json.add("endedAt", Instant.ofEpochMilli(s.getEndedAt()).toString()).add("endReason", s.getEndReason());
        }
        JsonArrayBuilder backends = JSON.createArrayBuilder();
        for (RecordedBackendSession b : records.backendsOf(s.getId())) {
            // an open session's backend sessions are shown as they stand now, an ended one's as they stood at its end
            BackendObservation now = s.getEndedAt() == null
                    ? BackendObservation.of(connections.pool(), s.getSubject(), b.getServerId(), b.getServerName())
                    : new BackendObservation(b.getServerId(), b.getServerName(), b.getState(), b.getBackendSessionId(), b.getLastError());
            JsonObjectBuilder backend = JSON.createObjectBuilder().add("serverId", now.serverId())
                    .add("serverName", now.serverName()).add("state", now.state());
            addIfPresent(backend, "backendSessionId", now.backendSessionId() != null ? now.backendSessionId() : b.getBackendSessionId());
            addIfPresent(backend, "lastError", now.lastError());
            backends.add(backend);
        }
        return json.add("backends", backends).build();
    }


    private static String oneOf(String name, String value, Set<String> allowed) {
        if (value == null || value.isBlank()) {
            return null;
        }
        if (!allowed.contains(value)) {
            throw ApiException.badRequest("invalid_" + name, "'" + name + "' must be one of " + allowed.stream().sorted().toList());
        }
        return value;
    }

    private static void filter(List<String> where, Map<String, Object> params, String field, String value) {
        if (value != null && !value.isBlank()) {
            where.add("s." + field + " = :" + field);
            params.put(field, value);
        }
    }

    private static long number(String name, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid_" + name, "'" + name + "' must be a whole number");
        }
    }

    private static void addIfPresent(JsonObjectBuilder json, String key, String value) {
        if (value != null) {
            json.add(key, value);
        }
    }
}
