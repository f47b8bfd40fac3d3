package dev.switchboard.security;

/**
 * A refused sign-in, a lock or an unlock, fired as a CDI event for the audit trail (which observes it: the audit room
 * depends on this one, not the other way round). Successful sign-ins are not events.
 *
 * @param tenant   the account's tenant, the default tenant for a name no user has
 * @param account  the name tried (lower case, cut to 255 characters)
 * @param address  the client address the attempt came from; null for an unlock
 * @param actor    the administrator who lifted a lock; null otherwise
 */
public record SignInEvent(Kind kind, String tenant, String account, String address, String actor) {

    public enum Kind {
        /** wrong password, unknown or disabled user (one kind: the trail does not tell them apart either) */
        INVALID_CREDENTIALS,
        /** refused without checking the password: the account or address must wait or is locked */
        THROTTLED,
        ACCOUNT_LOCKED,
        ADDRESS_LOCKED,
        UNLOCKED
    }
}
