package dev.switchboard.chat;

import java.time.Duration;

/**
 * What a run waiting for approvals writes on its message so that a run whose member died is noticed: this member's
 * id and a lease of {@code length}, renewed when half of it has passed (see {@link StoredApprovals}, {@link RunLeases}).
 */
record OwnerLease(String owner, Duration length) {

    long until(long nowMillis) {
        return nowMillis + length.toMillis();
    }

    /** Renewed when less than half of it is left. */
    boolean due(long heldSinceMillis, long nowMillis) {
        return nowMillis - heldSinceMillis >= length.toMillis() / 2;
    }
}
