package dev.switchboard.sql;

import java.time.Instant;
import java.util.List;

/** Who asks, as {@code auth.authenticate} established it: the token's subject, roles and seed-000 permissions. */
public record Caller(String userId, String username, List<String> roles, Permissions permissions, Instant expiresAt) {

    public Caller {
        roles = List.copyOf(roles);
    }

    /** Refuses with -31001 and the seed's data fields unless the caller holds {@code permission}. */
    public void require(String permission) {
        if (!permissions.has(permission)) {
            throw new QueryException(QueryErrorCode.AUTHORIZATION, "权限不足",
                    Params.data("required_permission", permission, "user_permissions", permissions.sorted()));
        }
    }
}
