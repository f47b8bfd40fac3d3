package dev.switchboard.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The tenant of callers whose token names none, and whose admins run the platform. Read from the configuration once:
 * the request-scoped callers ask for it on every request, and a config injection per request was visible in the
 * gateway's CPU profile.
 */
@ApplicationScoped
public class DefaultTenant {

    @Inject
    @ConfigProperty(name = "switchboard.default-tenant", defaultValue = "default")
    String id;

    protected DefaultTenant() {
    }

    public DefaultTenant(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** The tenant verified token claims name ({@code tenant}), this default when they name none. */
    public String of(JsonObject claims) {
        return claims.get(TokenMinter.TENANT_CLAIM) instanceof JsonString tenant && !tenant.getString().isBlank()
                ? tenant.getString() : id;
    }
}
