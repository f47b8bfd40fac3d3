package dev.switchboard.security;

import java.util.Set;

/** Who a token speaks for: subject (also upn), groups that become roles, and tenant. */
public record TokenSubject(String subject, Set<String> groups, String tenant) {

    public TokenSubject {
        groups = Set.copyOf(groups);
    }
}
