package dev.switchboard.sql.server;

import dev.switchboard.security.DefaultTenant;
import dev.switchboard.sql.auth.PermissionMapping;
import dev.switchboard.sql.grants.GrantCache;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.List;
import java.util.Map;

/**
 * The permissions of callers of the query service, shared by every way in (dialect, REST, the {@code sqlquery} tools):
 * the grants admins made ({@link GrantCache}) and the configured role defaults ({@code query.role.admin},
 * {@code query.role.user}) for roles whose grants no admin has set in the caller's tenant.
 */
@ApplicationScoped
public class QueryPermissions {

    @Inject
    QueryDatabase database;

    @Inject
    GrantCache grants;

    @Inject
    DefaultTenant defaultTenant;

    @Inject
    @ConfigProperty(name = "query.role.admin", defaultValue = "admin:*")
    List<String> adminPermissions;

    @Inject
    @ConfigProperty(name = "query.role.user", defaultValue = "schema:read,session:manage,table:*:read")
    List<String> userPermissions;

    private PermissionMapping mapping;

    @PostConstruct
    void init() {
        mapping = new PermissionMapping(Map.of("admin", adminPermissions, "user", userPermissions), database.catalog()::tableNames,
                grants, defaultTenant);
    }

    public PermissionMapping mapping() {
        return mapping;
    }
}
