package dev.switchboard.sql.server;

import dev.switchboard.platform.ApiException;
import dev.switchboard.platform.BodyFields;
import dev.switchboard.platform.QueryParameters;
import dev.switchboard.security.CurrentUser;
import dev.switchboard.security.LocalUser;
import dev.switchboard.security.LocalUsers;
import dev.switchboard.security.Role;
import dev.switchboard.sql.auth.PermissionMapping;
import dev.switchboard.sql.grants.Grant;
import dev.switchboard.sql.grants.GrantCache;
import dev.switchboard.sql.grants.GrantStore;
import dev.switchboard.sql.grants.GrantablePermission;
import dev.switchboard.sql.grants.RoleGrant;
import dev.switchboard.sql.grants.UserGrant;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * {@code /api/query/permissions} (admins): what callers may read through the query service, granted per tenant to
 * local users and to role {@code user}. Administrators of the default tenant manage every tenant; an administrator of
 * another tenant manages that tenant only (users of other tenants are unknown to them). A change applies to the next
 * request of every way into the query service (dialect, {@code sqlquery} tools, {@code /api/query}).
 */
@Path("query/permissions")
@RolesAllowed("admin")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Query permissions", description = "Who may read which tables of the query database: grants to users and roles, per tenant")
public class QueryGrantResource {

    private static final Set<String> FIELDS = Set.of("tenant", "user", "role", "permission");
    private static final String GRANTABLE_ROLE = Role.USER.claim();
    private static final Pattern TENANT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final int DEFAULT_LIMIT = 50;
    private static final int MAX_LIMIT = 200;

    /** Who a grant is for: a local user (in its tenant) or role {@code user} in a tenant. */
    private record Grantee(String tenant, LocalUser user, String role) {
    }

    @Inject
    GrantStore store;

    @Inject
    GrantCache cache;

    @Inject
    QueryPermissions permissions;

    @Inject
    QueryDatabase database;

    @Inject
    LocalUsers users;

    @Inject
    CurrentUser caller;

    @GET
    @Operation(summary = "A tenant's grants (tenant: default the caller's), role user's first (source default while no admin "
            + "has changed them: query.role.user), then users'; filter by user or role; offset and limit (1-200, default 50)")
    public JsonObject list(@QueryParam("tenant") String tenantText, @QueryParam("user") String username,
                           @QueryParam("role") String role, @QueryParam("offset") String offsetText,
                           @QueryParam("limit") String limitText) {
        if (username != null && role != null) {
            throw ApiException.badRequest("invalid_filter", "Filter by user or by role, not both");
        }
        int offset = QueryParameters.inRange("offset", offsetText, 0, 0, Integer.MAX_VALUE);
        int limit = QueryParameters.inRange("limit", limitText, DEFAULT_LIMIT, 1, MAX_LIMIT);
        Grantee filter = username != null ? userGrantee(username, tenantText)
                : role != null ? roleGrantee(role, tenantText) : new Grantee(tenant(tenantText), null, null);
        String tenant = filter.tenant();
        List<JsonObject> roleEntries = filter.user() != null ? List.of() : roleEntries(tenant);
        long userTotal = filter.role() != null ? 0 : store.countUserGrants(tenant, filter.user() == null ? null : filter.user().username());
        JsonArrayBuilder data = JSON.createArrayBuilder();
        roleEntries.stream().skip(offset).limit(limit).forEach(data::add);
        int taken = (int) Math.min(limit, Math.max(0, roleEntries.size() - (long) offset));
        if (filter.role() == null) {
            store.userGrants(tenant, filter.user() == null ? null : filter.user().username(),
                    Math.max(0, offset - roleEntries.size()), limit - taken).forEach(g -> data.add(entry(g)));
        }
        return JSON.createObjectBuilder().add("tenant", tenant).add("data", data).add("offset", offset).add("limit", limit)
                .add("total", roleEntries.size() + userTotal).build();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Grant a permission: {user or role, permission, tenant?}; permission table:{name}:read, table:*:read, "
            + "schema:read, session:manage or admin:*. 201 when new, 200 when it was granted already")
    public Response grant(JsonObject body) {
        BodyFields fields = BodyFields.of(body, FIELDS);
        String tenantText = fields.string("tenant");
        String username = fields.string("user");
        String role = fields.string("role");
        String permissionText = fields.requiredString("permission");
        Grantee grantee = grantee(username, role, tenantText);
        String permission = GrantablePermission.parse(permissionText, database.catalog().tableNames());
        String by = caller.subject();
        GrantStore.Granted granted = grantee.user() != null ? store.grant(grantee.user(), permission, by)
                : store.grant(grantee.tenant(), grantee.role(), permission, by, roleDefault(grantee.role()));
        cache.forget(grantee.tenant());
        return Response.status(granted.created() ? Response.Status.CREATED : Response.Status.OK).entity(entry(granted.grant())).build();
    }

    @DELETE
    @Operation(summary = "Revoke a permission: ?user= or ?role=, &permission=, &tenant= (for a role; default the caller's). "
            + "204; 404 grant_not_found when the user or role does not hold it")
    public Response revoke(@QueryParam("tenant") String tenantText, @QueryParam("user") String username,
                           @QueryParam("role") String role, @QueryParam("permission") String permissionText) {
        Grantee grantee = grantee(username, role, tenantText);
        if (permissionText == null || permissionText.isBlank()) {
            throw ApiException.badRequest("missing_field", "'permission' is required: the permission to revoke");
        }
        String permission = permissionText.strip().toLowerCase(Locale.ROOT);
        boolean revoked = grantee.user() != null ? store.revoke(grantee.user(), permission)
                : store.revoke(grantee.tenant(), grantee.role(), permission, caller.subject(), roleDefault(grantee.role()));
        if (!revoked) {
            throw new ApiException(Response.Status.NOT_FOUND, "not_found_error", "grant_not_found", notHeld(grantee, permission));
        }
        cache.forget(grantee.tenant());
        return Response.noContent().build();
    }

    @GET
    @Path("effective")
    @Operation(summary = "What a local user may do through the query service now: roles and permissions, table:*:read expanded "
            + "to the tables of the query database")
    public JsonObject effective(@QueryParam("user") String username) {
        if (username == null || username.isBlank()) {
            throw ApiException.badRequest("missing_field", "'user' is required: whose permissions to show");
        }
        LocalUser user = userGrantee(username, null).user();
        List<String> roles = new TreeSet<>(user.role().groups()).stream().toList();
        PermissionMapping mapping = permissions.mapping();
        JsonArrayBuilder granted = JSON.createArrayBuilder();
        mapping.permissions(store.load(user.tenantId(), user.username()), roles).sorted().forEach(granted::add);
        return JSON.createObjectBuilder().add("user", user.username()).add("tenant", user.tenantId())
                .add("roles", JSON.createArrayBuilder(roles)).add("permissions", granted).build();
    }

    private Grantee grantee(String username, String role, String tenantText) {
        if (username != null && role != null) {
            throw ApiException.badRequest("invalid_grantee", "Name a user or a role, not both");
        }
        if (username == null && role == null) {
            throw ApiException.badRequest("missing_field", "'user' or 'role' is required: who gets or loses the permission");
        }
        return username != null ? userGrantee(username, tenantText) : roleGrantee(role, tenantText);
    }

    /** A local user this admin manages; its tenant is the grant's (a tenant named as well must be that one). */
    private Grantee userGrantee(String username, String tenantText) {
        LocalUser user = users.find(username).filter(u -> mayManage(u.tenantId())).orElseThrow(() ->
                ApiException.badRequest("unknown_user", "No user '" + username + "'"
                        + (caller.seesAllTenants() ? "" : " in tenant " + caller.tenant())));
        if (tenantText != null && !tenantText.equals(user.tenantId())) {
            throw ApiException.badRequest("unknown_user", "User '" + user.username() + "' is not of tenant '" + tenantText
                    + "' (it is of " + user.tenantId() + ")");
        }
        return new Grantee(user.tenantId(), user, null);
    }

    private Grantee roleGrantee(String role, String tenantText) {
        if (!GRANTABLE_ROLE.equals(role)) {
            throw ApiException.badRequest("unknown_role", Role.ADMIN.claim().equals(role)
                    ? "Role admin holds admin:* (every permission, query.role.admin) already: grant to role user or to a user"
                    : "No role '" + role + "': grants go to role user or to a user");
        }
        return new Grantee(tenant(tenantText), null, role);
    }

    /** The tenant asked for (the caller's when none): one this admin manages. */
    private String tenant(String tenantText) {
        if (tenantText != null && !TENANT.matcher(tenantText).matches()) {
            throw ApiException.badRequest("invalid_tenant", "tenant: 1-64 letters, digits, '.', '_' or '-'");
        }
        String tenant = tenantText == null ? caller.tenant() : tenantText;
        if (!mayManage(tenant)) {
            throw ApiException.forbidden("tenant_forbidden", "An administrator of tenant " + caller.tenant()
                    + " manages only that tenant's query permissions");
        }
        return tenant;
    }

    private boolean mayManage(String tenant) {
        return caller.seesAllTenants() || caller.tenant().equals(tenant);
    }

    /** Role user's entries in the tenant: its grants where an admin set them, else its configured default. */
    private List<JsonObject> roleEntries(String tenant) {
        List<JsonObject> entries = new ArrayList<>();
        if (store.roles(tenant).containsKey(GRANTABLE_ROLE)) {
            store.roleGrants(tenant).stream().filter(g -> g.role().equals(GRANTABLE_ROLE)).forEach(g -> entries.add(entry(g)));
        } else {
            roleDefault(GRANTABLE_ROLE).forEach(p -> entries.add(JSON.createObjectBuilder().add("tenant", tenant)
                    .add("role", GRANTABLE_ROLE).add("permission", p).add("source", "default").build()));
        }
        return entries;
    }

    /** The role's configured default as stored grants are: lower case, sorted, once each. */
    private List<String> roleDefault(String role) {
        return permissions.mapping().roleDefault(role).stream().map(p -> p.strip().toLowerCase(Locale.ROOT))
                .filter(p -> !p.isEmpty()).collect(java.util.stream.Collectors.toCollection(TreeSet::new)).stream().toList();
    }

    private String notHeld(Grantee grantee, String permission) {
        String who = grantee.user() != null ? "User '" + grantee.user().username() + "'" : "Role " + grantee.role()
                + " in tenant " + grantee.tenant();
        boolean everyTable = grantee.user() != null
                ? store.ofUser(grantee.user()).stream().anyMatch(g -> g.permission().equals(PermissionMapping.EVERY_TABLE))
                : store.roles(grantee.tenant()).getOrDefault(grantee.role(), Set.copyOf(roleDefault(grantee.role())))
                        .contains(PermissionMapping.EVERY_TABLE);
        return who + " does not hold " + permission + (everyTable && permission.startsWith("table:")
                ? "; it holds table:*:read (every table): revoke that and grant the tables it should read" : "");
    }

    private static JsonObject entry(Grant grant) {
        JsonObjectBuilder who = JSON.createObjectBuilder().add("tenant", grant.tenantId());
        if (grant instanceof UserGrant toUser) {
            who.add("user", toUser.username());
        } else if (grant instanceof RoleGrant toRole) {
            who.add("role", toRole.role());
        }
        return who.add("permission", grant.permission()).add("source", "grant").add("grantedBy", grant.grantedBy())
                .add("grantedAt", Instant.ofEpochMilli(grant.grantedAt()).toString()).build();
    }

}
