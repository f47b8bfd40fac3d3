package dev.switchboard.policy;

import dev.switchboard.platform.ApiException;
import dev.switchboard.platform.BodyFields;
import dev.switchboard.platform.QueryParameters;
import dev.switchboard.security.CurrentUser;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * {@code /api/tenants}: tenants and their policy bindings. Administrators of the default tenant run the platform and
 * manage every tenant; an administrator of another tenant may read that tenant (and its policy) only; other tenants
 * answer 404 to them, as everywhere else. Users have no access.
 */
@Path("/tenants")
@RolesAllowed("admin")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Tenants", description = "Tenants and their gateway policy: tool allowlist, prompt/resource backends, rate limit, retry rules")
public class TenantResource {

    private static final Pattern ID = Pattern.compile("^[A-Za-z0-9._-]{1,64}$");
    private static final Set<String> TENANT_FIELDS = Set.of("id", "name", "policy");
    private static final int MAX_LIMIT = 200;

    @Inject
    Tenants tenants;

    @Inject
    CurrentUser caller;


    @GET
    @Operation(summary = "Tenants by id with their policy; offset and limit (1-200, default 50) page the list")
    public JsonObject list(@QueryParam("offset") String offsetText, @QueryParam("limit") String limitText) {
        int offset = QueryParameters.inRange("offset", offsetText, 0, 0, Integer.MAX_VALUE);
        int limit = QueryParameters.inRange("limit", limitText, 50, 1, MAX_LIMIT);
        List<Tenant> visible;
        long total;
        if (isPlatformAdmin()) {
            Tenants.Page page = tenants.page(offset, limit);
            visible = page.tenants();
            total = page.total();
        } else {
            List<Tenant> own = tenants.find(caller.tenant()).stream().toList();
            visible = offset == 0 ? own : List.of();
            total = own.size();
        }
        JsonArrayBuilder data = JSON.createArrayBuilder();
        visible.forEach(t -> data.add(describe(t)));
        return JSON.createObjectBuilder().add("data", data).add("offset", offset).add("limit", limit)
                .add("total", total).build();
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "One tenant with its policy (null: unrestricted)")
    public JsonObject get(@PathParam("id") String id) {
        return describe(readable(id));
    }

    @POST
    @Operation(summary = "Create a tenant: id (the tokens' tenant claim), name, optional policy")
    public Response create(JsonObject body) {
        requirePlatformAdmin();
        BodyFields fields = BodyFields.of(body, TENANT_FIELDS);
        String id = fields.requiredString("id");
        if (!ID.matcher(id).matches()) {
            throw ApiException.badRequest("invalid_tenant_id", "id is required: 1-64 letters, digits, '.', '_' or '-'");
        }
        String name = name(fields, id);
        TenantPolicy policy = policyOrNull(fields);
        Tenant created = tenants.create(id, name, policy);
        return Response.created(URI.create("tenants/" + id)).entity(describe(created)).build();
    }

    @PUT
    @Path("/{id}")
    @Operation(summary = "Rename a tenant and/or replace its policy (fields left out stay; \"policy\": null removes it)")
    public JsonObject update(@PathParam("id") String id, JsonObject body) {
        readable(id);
        requirePlatformAdmin();
        BodyFields fields = BodyFields.of(body, TENANT_FIELDS);
        if (fields.has("id") && !id.equals(fields.string("id"))) {
            throw ApiException.badRequest("id_immutable", "A tenant's id cannot change (it is the tokens' tenant claim)");
        }
        if (fields.has("name")) {
            tenants.rename(id, name(fields, id));
        }
        Tenant tenant = fields.json().containsKey("policy") ? tenants.bind(id, policyOrNull(fields)) : readable(id);
        return describe(tenant);
    }

    @PUT
    @Path("/{id}/policy")
    @Operation(summary = "Replace the tenant's policy binding")
    public JsonObject bind(@PathParam("id") String id, JsonObject policy) {
        readable(id);
        requirePlatformAdmin();
        return describe(tenants.bind(id, PolicyJson.read(policy)));
    }

    @DELETE
    @Path("/{id}/policy")
    @Operation(summary = "Remove the tenant's policy binding: the tenant is unrestricted again")
    public JsonObject unbind(@PathParam("id") String id) {
        readable(id);
        requirePlatformAdmin();
        return describe(tenants.bind(id, null));
    }

    @DELETE
    @Path("/{id}")
    @Operation(summary = "Delete a tenant without users or MCP servers (409 tenant_in_use otherwise)")
    public Response delete(@PathParam("id") String id) {
        readable(id);
        requirePlatformAdmin();
        tenants.delete(id);
        return Response.noContent().build();
    }

    private boolean isPlatformAdmin() {
        return caller.isAdmin() && caller.seesAllTenants();
    }

    private void requirePlatformAdmin() {
        if (!isPlatformAdmin()) {
            throw ApiException.forbidden("tenant_forbidden", "Only administrators of the default tenant change tenants; "
                    + "an administrator of tenant " + caller.tenant() + " can read it only");
        }
    }

    /** Another tenant is 404 to a tenant administrator: its existence is none of their business. */
    private Tenant readable(String id) {
        if (!isPlatformAdmin() && !caller.tenant().equals(id)) {
            throw ApiException.notFound("No tenant " + id);
        }
        return tenants.find(id).orElseThrow(() -> ApiException.notFound("No tenant " + id));
    }

    private JsonObject describe(Tenant tenant) {
        var json = JSON.createObjectBuilder().add("id", tenant.id()).add("name", tenant.name())
                .add("createdAt", Instant.ofEpochMilli(tenant.createdAt()).toString())
                .add("updatedAt", Instant.ofEpochMilli(tenant.updatedAt()).toString());
        tenants.policy(tenant.id()).ifPresentOrElse(p -> json.add("policy", PolicyJson.write(p)), () -> json.addNull("policy"));
        return json.build();
    }

    private static TenantPolicy policyOrNull(BodyFields fields) {
        JsonObject policy = fields.object("policy");
        return policy == null ? null : PolicyJson.read(policy);
    }

    private static String name(BodyFields fields, String fallback) {
        String name = fields.string("name");
        if (name == null) {
            return fallback;
        }
        if (name.isBlank() || name.length() > 255) {
            throw ApiException.badRequest("invalid_name", "name must be 1-255 characters");
        }
        return name.strip();
    }
}
