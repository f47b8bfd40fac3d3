package dev.switchboard.sql.auth;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A caller's permissions before {@code table:*:read} is expanded: the token's own {@code permissions} claim, the grants
 * to the caller, and the grants to each of its roles in its tenant. A role whose grants no admin has set in the tenant
 * holds its configured default ({@code query.role.<role>}), but only for a token without a {@code permissions} claim:
 * such a claim has always replaced the role defaults, so an external token that names its tables keeps to them and
 * reads more only where an admin granted more.
 */
public final class EffectivePermissions {

    private EffectivePermissions() {
    }

    /** @param claimed the token's {@code permissions} claim; null when it has none */
    public static List<String> of(List<String> claimed, StoredGrants stored, Collection<String> roles,
                                  Map<String, List<String>> roleDefaults) {
        Set<String> granted = new TreeSet<>(stored.ofUser());
        if (claimed != null) {
            granted.addAll(claimed);
        }
        for (String role : roles) {
            Set<String> set = stored.ofRoles().get(role);
            if (set != null) {
                granted.addAll(set);
            } else if (claimed == null) {
                granted.addAll(roleDefaults.getOrDefault(role, List.of()));
            }
        }
        return List.copyOf(granted);
    }
}
