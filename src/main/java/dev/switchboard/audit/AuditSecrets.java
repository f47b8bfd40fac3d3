package dev.switchboard.audit;

import dev.switchboard.security.VersionedKeys;
import jakarta.json.JsonValue;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The versioned audit secrets of the governance audit rules: {@code input_hash = HMAC-SHA256(audit_secret_vN, canonical_json(input))}.
 * New events are hashed with the newest version; a look-up by input tries every version not yet retired, so events
 * hashed under vN and vN+1 are both found during a rotation.
 */
public final class AuditSecrets {

    /** A hash and the secret version that made it. */
    public record InputHash(int version, String hex) {
    }

    private final TreeMap<Integer, byte[]> active = new TreeMap<>();

    /**
     * @param secrets versions and their keys (any length, at least 32 bytes recommended)
     * @param retired versions no longer used for hashing or look-ups
     */
    public AuditSecrets(Map<Integer, byte[]> secrets, Set<Integer> retired) {
        secrets.forEach((version, key) -> {
            if (!retired.contains(version)) {
                active.put(version, key.clone());
            }
        });
        if (active.isEmpty()) {
            throw new IllegalArgumentException("No audit secret left: configure switchboard.audit.secrets (v1=<base64>,...)");
        }
    }

    /** Parses {@code v1=<base64>,v2=<base64>}. */
    public static Map<Integer, byte[]> parse(String config) {
        return VersionedKeys.parse(config, "Audit secret");
    }

    public int currentVersion() {
        return active.lastKey();
    }

    /** The hash a new event stores. */
    public InputHash hash(JsonValue input) {
        return new InputHash(currentVersion(), hmac(active.lastEntry().getValue(), CanonicalJson.of(input)));
    }

    /** Every hash an event with this input may carry, by version (newest first). */
    public Map<Integer, String> lookupHashes(JsonValue input) {
        String canonical = CanonicalJson.of(input);
        Map<Integer, String> hashes = new LinkedHashMap<>();
        active.descendingMap().forEach((version, key) -> hashes.put(version, hmac(key, canonical)));
        return Collections.unmodifiableMap(hashes);
    }

    private static String hmac(byte[] key, String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 missing from the JDK", e);
        }
    }
}
