package dev.switchboard.security;

import jakarta.json.JsonString;

/** MicroProfile JWT hands string claims out as String or as JsonString depending on the implementation. */
final class ClaimValues {

    private ClaimValues() {
    }

    static String asString(Object claim) {
        if (claim instanceof JsonString json) {
            return json.getString();
        }
        return claim == null ? null : claim.toString();
    }
}
