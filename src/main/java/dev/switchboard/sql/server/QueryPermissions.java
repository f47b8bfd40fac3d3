package dev.switchboard.sql.server;

import dev.switchboard.sql.auth.PermissionMapping;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.List;
import java.util.Map;

/**
 * The query-dialect permissions a token's groups grant when it has no {@code permissions} claim ({@code query.role.admin},
 * {@code query.role.user}), shared by every way into the query service (dialect, REST).
 */
@ApplicationScoped
public class QueryPermissions {

    @Inject
    QueryDatabase database;

    @Inject
    @ConfigProperty(name = "query.role.admin", defaultValue = "admin:*")
    List<String> adminPermissions;

    @Inject
    @ConfigProperty(name = "query.role.user", defaultValue = "schema:read,session:manage,table:*:read")
    List<String> userPermissions;

    private PermissionMapping mapping;

    @PostConstruct
    void init() {
        mapping = new PermissionMapping(Map.of("admin", adminPermissions, "user", userPermissions), database.catalog()::tableNames);
    }

    public PermissionMapping mapping() {
        return mapping;
    }
}
