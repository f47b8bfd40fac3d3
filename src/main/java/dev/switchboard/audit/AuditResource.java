package dev.switchboard.audit;

import dev.switchboard.platform.ApiException;
import dev.switchboard.platform.BodyFields;
import dev.switchboard.security.CurrentUser;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.Set;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** {@code /api/audit} for admins: search the audit trail, look events up by their input, verify a tenant's chain. */
@Path("/audit")
@RolesAllowed("admin")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Audit", description = "Audit events of gateway calls and policy decisions")
public class AuditResource {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    CurrentUser caller;

    @Inject
    AuditSecrets secrets;


    @GET
    @Operation(summary = "Audit events, newest first; filters: tenant, subject, tool, backend, decision, from, to; "
            + "page with limit and cursor (the nextCursor of the previous page)")
    public JsonObject search(@QueryParam("tenant") String tenant, @QueryParam("subject") String subject,
                             @QueryParam("tool") String tool, @QueryParam("backend") String backend,
                             @QueryParam("decision") String decision, @QueryParam("from") String from,
                             @QueryParam("to") String to, @QueryParam("limit") String limit,
                             @QueryParam("cursor") String cursor) {
        AuditQuery query = AuditQuery.of(caller.tenantToRead(tenant, "audit trail"), subject, tool, backend, decision, from, to, limit, cursor);
        Map<String, Object> params = new LinkedHashMap<>();
        List<String> where = new ArrayList<>();
        where.add("e.tenantId = :tenant");
        params.put("tenant", query.tenant());
        addFilter(where, params, "subject", query.subject());
        addFilter(where, params, "tool", query.tool());
        addFilter(where, params, "backendId", query.backend());
        addFilter(where, params, "decision", query.decision());
        if (query.from() != null) {
            where.add("e.ts >= :from");
            params.put("from", query.from());
        }
        if (query.to() != null) {
            where.add("e.ts < :to");
            params.put("to", query.to());
        }
        if (query.before() != null) {
            where.add("e.id < :before");
            params.put("before", query.before());
        }
        TypedQuery<AuditEvent> jpql = em.createQuery("select e from AuditEvent e where " + String.join(" and ", where)
                + " order by e.id desc", AuditEvent.class).setMaxResults(query.limit() + 1);
        params.forEach(jpql::setParameter);
        return page(jpql.getResultList(), query.limit());
    }

    @POST
    @Path("/search-by-input")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Events whose input was exactly this JSON, under every audit secret version still in use")
    public JsonObject byInput(JsonObject body) {
        BodyFields fields = BodyFields.of(body, Set.of("input", "tenant"));
        if (!fields.has("input")) {
            throw ApiException.badRequest("missing_field", "'input' is required: the tool arguments to look for");
        }
        String tenant = caller.tenantToRead(fields.string("tenant"), "audit trail");
        List<String> hashes = List.copyOf(secrets.lookupHashes(fields.required("input")).values());
        List<AuditEvent> events = em.createQuery("select e from AuditEvent e where e.tenantId = :tenant "
                        + "and e.inputHash in :hashes order by e.id desc", AuditEvent.class)
                .setParameter("tenant", tenant).setParameter("hashes", hashes).setMaxResults(500).getResultList();
        return page(events, 500);
    }

    @GET
    @Path("/verify")
    @Operation(summary = "Walk a tenant's hash chain: every event unchanged, none missing")
    public JsonObject verify(@QueryParam("tenant") String tenant) {
        AuditChain.Verification result = AuditChain.verify(em, caller.tenantToRead(tenant, "audit trail"));
        JsonObjectBuilder json = JSON.createObjectBuilder().add("tenant", result.tenantId()).add("valid", result.valid())
                .add("checked", result.checked());
        if (!result.valid()) {
            json.add("brokenAtSeq", result.brokenAtSeq()).add("reason", result.reason());
        }
        return json.build();
    }


    private static void addFilter(List<String> where, Map<String, Object> params, String field, String value) {
        if (value != null && !value.isBlank()) {
            where.add("e." + field + " = :" + field);
            params.put(field, value);
        }
    }

    private static JsonObject page(List<AuditEvent> events, int limit) {
        JsonArrayBuilder data = JSON.createArrayBuilder();
        events.stream().limit(limit).forEach(e -> data.add(e.toJson()));
        JsonObjectBuilder json = JSON.createObjectBuilder().add("data", data);
        if (events.size() > limit) {
            json.add("nextCursor", String.valueOf(events.get(limit - 1).getId()));
        }
        return json.build();
    }
}
