package dev.switchboard.security;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Configuration of versioned keys, {@code v1=<base64>,v2=<base64>}, and of version lists, {@code 1,2}. */
public final class VersionedKeys {

    private VersionedKeys() {
    }

    /** @param what names the setting in errors (the keys themselves never appear in one) */
    public static Map<Integer, byte[]> parse(String config, String what) {
        Map<Integer, byte[]> keys = new LinkedHashMap<>();
        for (String entry : config.split(",")) {
            String trimmed = entry.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            int eq = trimmed.indexOf('=');
            if (eq < 2 || trimmed.charAt(0) != 'v') {
                throw new IllegalArgumentException(what + " entry must look like v1=<base64>: " + trimmed.charAt(0) + "...");
            }
            try {
                keys.put(Integer.parseInt(trimmed.substring(1, eq)), Base64.getDecoder().decode(trimmed.substring(eq + 1).strip()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(what + " entry " + trimmed.substring(0, eq) + " is not v<number>=<base64>");
            }
        }
        return keys;
    }

    /** Parses {@code 1,2} (a leading {@code v} is allowed: {@code v1,v2}). */
    public static Set<Integer> versions(String config, String what) {
        Set<Integer> versions = new TreeSet<>();
        for (String entry : config.split(",")) {
            String trimmed = entry.strip();
            if (!trimmed.isEmpty()) {
                try {
                    versions.add(Integer.parseInt(trimmed.startsWith("v") ? trimmed.substring(1) : trimmed));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(what + " must list key versions like 1,2: " + trimmed);
                }
            }
        }
        return versions;
    }
}
