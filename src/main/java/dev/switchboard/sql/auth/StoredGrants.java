package dev.switchboard.sql.auth;

import java.util.Map;
import java.util.Set;

/**
 * What admins granted that bears on one caller in its tenant: the caller's own grants (when it is a local user of that
 * tenant) and, for each role whose grants an admin has set there, that role's grants. A role missing from
 * {@code ofRoles} keeps its configured default ({@code query.role.<role>}).
 */
public record StoredGrants(Set<String> ofUser, Map<String, Set<String>> ofRoles) {

    public static final StoredGrants NONE = new StoredGrants(Set.of(), Map.of());

    public StoredGrants {
        ofUser = Set.copyOf(ofUser);
        ofRoles = Map.copyOf(ofRoles);
    }

    /** Where the grants come from: the grant tables, through a short-lived cache. */
    @FunctionalInterface
    public interface Source {

        Source NONE = (tenant, subject) -> StoredGrants.NONE;

        StoredGrants of(String tenant, String subject);
    }
}
