package dev.switchboard.backend.builtin;

import dev.switchboard.security.CurrentUser;

import java.util.Set;

/**
 * Who a connection to a built-in server acts for, taken from the verified token when the connection is asked
 * for (never the token itself). The pool keeps one connection per (caller, server), so it is one user's.
 */
public record CallerIdentity(String subject, String tenant, Set<String> roles) {

    public CallerIdentity {
        roles = Set.copyOf(roles);
    }

    /** A copy made on the request's thread: the pool may connect later, outside the request. */
    public static CallerIdentity of(CurrentUser user) {
        return new CallerIdentity(user.subject(), user.tenant(), user.roles());
    }
}
