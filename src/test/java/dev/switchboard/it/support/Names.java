package dev.switchboard.it.support;

import java.util.UUID;

/** Names the tests give what they create: unique across runs, since the IT database outlives a run. */
public final class Names {

    private Names() {
    }

    /** {@code prefix-} and six random characters. */
    public static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 6);
    }
}
