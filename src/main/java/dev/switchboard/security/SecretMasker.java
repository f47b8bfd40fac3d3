package dev.switchboard.security;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Hides secrets in API responses and log lines. Long values keep their last two characters so a user can
 * tell which secret is set; short ones reveal nothing. Stateless: inject it or {@code new} it.
 */
@ApplicationScoped
public class SecretMasker {

    static final String DOTS = "••••••";
    private static final int REVEAL_TAIL_FROM_LENGTH = 12;

    public String mask(String secret) {
        if (secret == null) {
            return null;
        }
        if (secret.length() >= REVEAL_TAIL_FROM_LENGTH && !SecretCipher.isEncrypted(secret)) {
            return DOTS + secret.substring(secret.length() - 2);
        }
        return DOTS;
    }

    /** Same keys, masked values; null in, null out. */
    public Map<String, String> maskValues(Map<String, String> values) {
        if (values == null) {
            return null;
        }
        Map<String, String> masked = new LinkedHashMap<>();
        values.forEach((name, value) -> masked.put(name, mask(value)));
        return masked;
    }
}
