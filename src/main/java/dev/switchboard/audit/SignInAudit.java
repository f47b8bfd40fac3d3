package dev.switchboard.audit;

import dev.switchboard.security.SignInEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * Refused sign-ins, locks and unlocks in the audit trail: action {@code auth/login} (decision {@code deny}, outcome
 * {@code invalid_credentials} or {@code throttled}), {@code auth/lock} (outcome {@code account_locked} or
 * {@code address_locked}), {@code auth/unlock} (by the administrator in {@code client_id}). The subject is the name
 * tried; the client address is in {@code client_id} as {@code ip:<address>}.
 */
@ApplicationScoped
public class SignInAudit {

    @Inject
    AuditLog audit;

    void record(@Observes SignInEvent event) {
        String action = switch (event.kind()) {
            case INVALID_CREDENTIALS, THROTTLED -> "auth/login";
            case ACCOUNT_LOCKED, ADDRESS_LOCKED -> "auth/lock";
            case UNLOCKED -> "auth/unlock";
        };
        String decision = switch (event.kind()) {
            case INVALID_CREDENTIALS, THROTTLED -> "deny";
            case ACCOUNT_LOCKED, ADDRESS_LOCKED -> "lock";
            case UNLOCKED -> "unlock";
        };
        String client = event.actor() != null ? "admin:" + event.actor()
                : event.address() == null ? null : "ip:" + event.address();
        audit.record(new AuditRecord(System.currentTimeMillis(), event.tenant(), client, event.account(), action, null, null,
                decision, null, null, event.kind().name().toLowerCase(java.util.Locale.ROOT), null));
    }
}
