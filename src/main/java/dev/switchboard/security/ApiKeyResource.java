package dev.switchboard.security;

import dev.switchboard.platform.BodyFields;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
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

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** The caller's own API keys. The key itself appears once, in the answer to its creation. */
@Path("api-keys")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({"admin", "user"})
public class ApiKeyResource {

    private static final int MAX_NAME_LENGTH = 100;
    private static final Set<String> FIELDS = Set.of("name");

    @Inject
    ApiKeys apiKeys;

    @Inject
    CurrentUser currentUser;

    @Inject
    LocalUsers localUsers;

    @Inject
    SigningKeys signingKeys;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(JsonObject body) {
        if (currentUser.isApiKey()) {
            return SecurityErrors.error(Response.Status.FORBIDDEN, SecurityErrors.PERMISSION, "api_key_cannot_create_keys",
                    "An API key cannot create API keys; sign in to create one");
        }
        // an access token outlives a deleted (or disabled) local user; it must not buy a key that outlives it by a year
        if (signingKeys.signedHere(currentUser.rawToken()) && !localUsers.isActive(currentUser.subject())) {
            return SecurityErrors.unauthorized("user_not_active", "The user of this token no longer exists or is disabled",
                    "Bearer realm=\"switchboard\", error=\"invalid_token\"");
        }
        String name = BodyFields.of(body, FIELDS).requiredString("name").strip();
        if (name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            return SecurityErrors.badRequest("invalid_name", "name must be 1 to " + MAX_NAME_LENGTH + " characters");
        }
        ApiKeys.Created created = apiKeys.create(currentUser.asTokenSubject(), name);
        return Response.created(URI.create("api-keys/" + created.row().id()))
                .entity(describe(created.row()).add("key", created.key()).build())
                .build();
    }

    @GET
    public JsonValue list() {
        JsonArrayBuilder keys = JSON.createArrayBuilder();
        apiKeys.ownedBy(currentUser.subject(), currentUser.tenant()).forEach(key -> keys.add(describe(key)));
        return keys.build();
    }

    @DELETE
    @Path("{id}")
    public Response revoke(@PathParam("id") long id) {
        if (!apiKeys.revoke(id, currentUser.subject(), currentUser.tenant())) {
            return SecurityErrors.notFound("api_key_not_found", "No API key " + id);
        }
        return Response.noContent().build();
    }

    private static JsonObjectBuilder describe(ApiKey key) {
        JsonObjectBuilder json = JSON.createObjectBuilder()
                .add("id", key.id())
                .add("name", key.name())
                .add("prefix", key.keyPrefix())
                .add("createdAt", Instant.ofEpochMilli(key.createdAt()).toString())
                .add("expiresAt", Instant.ofEpochMilli(key.expiresAt()).toString())
                .add("revoked", key.isRevoked());
        if (key.lastUsedAt() != null) {
            json.add("lastUsedAt", Instant.ofEpochMilli(key.lastUsedAt()).toString());
        }
        if (key.revokedAt() != null) {
            json.add("revokedAt", Instant.ofEpochMilli(key.revokedAt()).toString());
        }
        return json;
    }
}
