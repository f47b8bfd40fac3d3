package dev.switchboard.gateway.record;

import dev.switchboard.backend.connection.BackendConnections;
import dev.switchboard.gateway.ClientSessions;
import dev.switchboard.platform.ApiException;
import dev.switchboard.platform.QueryParameters;
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
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

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
    private static final Pattern PROTOCOL_VERSION = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final int MAX_TEXT = 200;

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
            + "client (the client's name), protocolVersion, endpoint, transport (streamable_http, websocket, legacy_sse), "
            + "state (open, ended), q (text in the subject or the client's name); page with limit (1-500, default 50) "
            + "and cursor (the nextCursor of the previous page); total counts every session the filters match")
    public JsonObject list(@QueryParam("tenant") String tenant, @QueryParam("subject") String subject,
                           @QueryParam("client") String client, @QueryParam("protocolVersion") String protocolVersion,
                           @QueryParam("endpoint") String endpoint, @QueryParam("transport") String transport,
                           @QueryParam("state") String state, @QueryParam("q") String q,
                           @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        Map<String, Object> params = new LinkedHashMap<>();
        List<String> where = new ArrayList<>();
        where.add("s.tenantId = :tenant");
        params.put("tenant", caller.tenantToRead(tenant, "gateway sessions"));
        filter(where, params, "subject", subject);
        filter(where, params, "clientName", client);
        filter(where, params, "protocolVersion", protocolVersion(protocolVersion));
        filter(where, params, "endpoint", endpoint);
        filter(where, params, "transport", QueryParameters.oneOf("transport", transport, TRANSPORTS));
        String wanted = QueryParameters.oneOf("state", state, STATES);
        if (wanted != null) {
            where.add(wanted.equals("open") ? "s.endedAt is null" : "s.endedAt is not null");
        }
        String text = QueryParameters.text("q", q, MAX_TEXT);
        if (text != null) {
            where.add("(lower(s.subject) like :q escape '!' or lower(s.clientName) like :q escape '!')");
            params.put("q", "%" + likeEscaped(text.toLowerCase(Locale.ROOT)) + "%");
        }
        int size = QueryParameters.limit(limit, 50, 500);
        Long before = QueryParameters.absent(cursor) ? null : QueryParameters.wholeNumber("cursor", cursor);
        String matching = " from RecordedSession s where " + String.join(" and ", where);
        TypedQuery<Long> count = em.createQuery("select count(s)" + matching, Long.class);
        params.forEach(count::setParameter);
        TypedQuery<RecordedSession> query = em.createQuery("select s" + matching
                + (before == null ? "" : " and s.id < :before") + " order by s.id desc", RecordedSession.class)
                .setMaxResults(size + 1);
        params.forEach(query::setParameter);
        if (before != null) {
            query.setParameter("before", before);
        }
        List<RecordedSession> found = query.getResultList();
        JsonArrayBuilder data = JSON.createArrayBuilder();
        found.stream().limit(size).forEach(s -> data.add(json(s)));
        JsonObjectBuilder page = JSON.createObjectBuilder().add("data", data).add("total", count.getSingleResult());
        if (found.size() > size) {
            page.add("nextCursor", String.valueOf(found.get(size - 1).getId()));
        }
        return page.build();
    }

    /** A version is a date ({@code 2025-11-25}); versions come and go, so any date is a fair filter. */
    private static String protocolVersion(String value) {
        if (QueryParameters.absent(value)) {
            return null;
        }
        if (!PROTOCOL_VERSION.matcher(value).matches()) {
            throw ApiException.badRequest("invalid_protocolVersion", "'protocolVersion' must be a date such as 2025-11-25");
        }
        return value;
    }

    /** LIKE treats % and _ as wildcards: searched for as themselves, after the escape character. */
    private static String likeEscaped(String text) {
        return text.replace("!", "!!").replace("%", "!%").replace("_", "!_");
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


    private static void filter(List<String> where, Map<String, Object> params, String field, String value) {
        if (value != null && !value.isBlank()) {
            where.add("s." + field + " = :" + field);
            params.put(field, value);
        }
    }

    private static void addIfPresent(JsonObjectBuilder json, String key, String value) {
        if (value != null) {
            json.add(key, value);
        }
    }
}
