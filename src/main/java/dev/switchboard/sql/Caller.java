package dev.switchboard.sql;

import java.time.Instant;
import java.util.List;

/**
 * Who asks over the query dialect, as its {@code auth.authenticate} established it: the token's subject, roles and the
 * dialect's own permissions. Apart from {@link dev.switchboard.security.CallerIdentity} on purpose: the dialect
 * authenticates inside the conversation against its own issuer and maps roles to its permission table, so this
 * caller carries what Switchboard's users never have (permissions, the token's expiry).
 */
public record Caller(String userId, String username, List<String> roles, Permissions permissions, Instant expiresAt) {

    public Caller {
        roles = List.copyOf(roles);
    }

    /** Refuses with -31001 and the dialect's data fields unless the caller holds {@code permission}. */
    public void require(String permission) {
        if (!permissions.has(permission)) {
            throw new QueryException(QueryErrorCode.AUTHORIZATION, "权限不足",
                    Params.data("required_permission", permission, "user_permissions", permissions.sorted()));
        }
    }
}
