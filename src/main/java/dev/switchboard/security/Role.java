package dev.switchboard.security;

import java.util.Set;

/** The two roles; an admin's token carries both groups so "user" endpoints need only name "user". */
public enum Role {
    ADMIN("admin", Set.of("admin", "user")),
    USER("user", Set.of("user"));

    private final String claim;
    private final Set<String> groups;

    Role(String claim, Set<String> groups) {
        this.claim = claim;
        this.groups = groups;
    }

    public String claim() {
        return claim;
    }

    public Set<String> groups() {
        return groups;
    }

    /** @throws IllegalArgumentException for anything but "admin" or "user" */
    public static Role of(String claim) {
        for (Role role : values()) {
            if (role.claim.equals(claim)) {
                return role;
            }
        }
        throw new IllegalArgumentException("role must be admin or user");
    }
}
