package dev.switchboard.policy;

import java.util.Locale;
import java.util.Optional;

/** How risky an administrator rates a tool; only {@link #LOW} tools may ever be retried (the governance retry rules). */
public enum Risk {
    LOW, MEDIUM, HIGH;

    public String json() {
        return name().toLowerCase(Locale.ROOT);
    }

    static Optional<Risk> parse(String text) {
        for (Risk risk : values()) {
            if (risk.json().equals(text)) {
                return Optional.of(risk);
            }
        }
        return Optional.empty();
    }
}
