package dev.switchboard.security;

import dev.switchboard.platform.BodyFields;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Instant;
import java.util.Set;
import java.util.regex.Pattern;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** Admins manage the local users of the built-in issuer. */
@Path("users")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed("admin")
public class UserResource {

    private static final Pattern USERNAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,63}");
    private static final Pattern TENANT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    private static final Set<String> FIELDS = Set.of("username", "password", "role", "tenant");
    private static final int MIN_PASSWORD_LENGTH = 8;
    private static final int MAX_PASSWORD_LENGTH = 1024;

    @Inject
    LocalUsers users;


    @Inject
    CurrentUser caller;

    @Inject
    LocalLogin login;

    @Inject
    PasswordHasher hasher;

    /**
     * Least privilege between tenants: admins of the default tenant run the platform and manage every tenant's
     * users; an admin of any other tenant sees and manages only the users of that tenant.
     */
    private boolean mayManage(String tenant) {
        return caller.seesAllTenants() || caller.tenant().equals(tenant);
    }

    @GET
    public JsonValue list() {
        JsonArrayBuilder list = JSON.createArrayBuilder();
        users.all().stream().filter(user -> mayManage(user.tenantId())).forEach(user -> list.add(describe(user)));
        return list.build();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(JsonObject body) {
        BodyFields fields = BodyFields.of(body, FIELDS);
        String username = fields.requiredString("username");
        String password = fields.requiredString("password");
        String roleName = fields.string("role");
        String tenant = fields.string("tenant");
        if (!USERNAME.matcher(username).matches()) {
            return SecurityErrors.badRequest("invalid_username",
                    "username is required: 1-64 letters, digits, '.', '_', '@' or '-'");
        }
        if (password.length() < MIN_PASSWORD_LENGTH || password.length() > MAX_PASSWORD_LENGTH) {
            return SecurityErrors.badRequest("invalid_password",
                    "password is required, at least " + MIN_PASSWORD_LENGTH + " characters");
        }
        Role role;
        try {
            role = roleName == null ? Role.USER : Role.of(roleName);
        } catch (IllegalArgumentException e) {
            return SecurityErrors.badRequest("invalid_role", e.getMessage());
        }
        if (tenant == null || tenant.isBlank()) {
            tenant = caller.tenant();
        } else if (!TENANT.matcher(tenant).matches()) {
            return SecurityErrors.badRequest("invalid_tenant", "tenant: 1-64 letters, digits, '.', '_' or '-'");
        }
        if (!mayManage(tenant)) {
            return SecurityErrors.error(Response.Status.FORBIDDEN, SecurityErrors.PERMISSION, "tenant_forbidden",
                    "An administrator of tenant " + caller.tenant() + " can only create users in that tenant");
        }
        return users.create(username, hasher.hash(password.toCharArray()), role, tenant)
                .map(user -> Response.created(URI.create("users/" + user.username())).entity(describe(user)).build())
                .orElseGet(() -> SecurityErrors.error(Response.Status.CONFLICT, SecurityErrors.CONFLICT, "user_exists",
                        "User " + username + " already exists"));
    }

    @DELETE
    @Path("{username}")
    public Response delete(@PathParam("username") String username) {
        if (users.find(username).filter(user -> mayManage(user.tenantId())).isEmpty()) {
            return SecurityErrors.notFound("user_not_found", "No user " + username);
        }
        return switch (users.delete(username)) {
            case DELETED -> Response.noContent().build();
            case NOT_FOUND -> SecurityErrors.notFound("user_not_found", "No user " + username);
            case LAST_ADMIN -> SecurityErrors.error(Response.Status.CONFLICT, SecurityErrors.CONFLICT, "last_admin",
                    "Cannot delete the last administrator");
        };
    }

    /**
     * Lifts the user's sign-in lock (after repeated failed passwords) and forgets its failures, so the next wrong
     * password starts from zero. Answers whether a lock was lifted; a user who was not locked is no error.
     */
    @POST
    @Path("{username}/unlock")
    public Response unlock(@PathParam("username") String username) {
        return users.find(username).filter(user -> mayManage(user.tenantId()))
                .map(user -> Response.ok(JSON.createObjectBuilder().add("username", user.username())
                        .add("wasLocked", login.unlock(user, caller.subject())).build()).build())
                .orElseGet(() -> SecurityErrors.notFound("user_not_found", "No user " + username));
    }

    private JsonObject describe(LocalUser user) {
        return JSON.createObjectBuilder()
                .add("username", user.username())
                .add("role", user.role().claim())
                .add("tenant", user.tenantId())
                .add("createdAt", Instant.ofEpochMilli(user.createdAt()).toString())
                .add("disabled", user.disabled())
                .add("locked", login.isLocked(user))
                .build();
    }
}
