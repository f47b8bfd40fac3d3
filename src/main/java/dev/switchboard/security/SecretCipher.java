package dev.switchboard.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts secrets at rest (server config header and env values) with AES-256-GCM under versioned keys.
 * A value is {@code enc:v2:<key version>:<base64(iv | ciphertext+tag)>} and is bound to its place (the row and field
 * it belongs to, e.g. {@code mcp_server/7/headers/Authorization}) as GCM associated data: copied to another row or
 * field it fails to decrypt. The newest key encrypts; older keys still decrypt until retired, and a retired key is
 * refused. Values of before, {@code enc:v1:<base64>} (no key version, no place), are read with key version 1 and
 * {@link #isCurrent are not current}, so the re-encryption rewrites them; values without a prefix are plain text
 * still awaiting encryption (rows written before encryption existed).
 * Obtain it by injection (produced by {@link SecretKeySource}).
 */
public final class SecretCipher {

    static final String PREFIX = "enc:v2:";
    static final String LEGACY_PREFIX = "enc:v1:";
    static final int LEGACY_KEY_VERSION = 1;
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final NavigableMap<Integer, SecretKey> keys = new TreeMap<>();
    private final Set<Integer> retired;
    private final SecureRandom random = new SecureRandom();

    /**
     * @param keys    every configured key by version (32 bytes each)
     * @param retired versions that must no longer decrypt; the newest key cannot be one of them
     */
    public SecretCipher(Map<Integer, byte[]> keys, Set<Integer> retired) {
        keys.forEach((version, key) -> {
            if (key.length != 32) {
                throw new IllegalArgumentException("Secret key v" + version + " must be 32 bytes (AES-256), got " + key.length);
            }
            if (version < 1) {
                throw new IllegalArgumentException("Secret key versions start at 1, got v" + version);
            }
            if (!retired.contains(version)) {
                this.keys.put(version, new SecretKeySpec(key, "AES"));
            }
        });
        if (this.keys.isEmpty()) {
            throw new IllegalArgumentException("No secret key left to encrypt with: every configured version is retired");
        }
        int newest = keys.keySet().stream().max(Integer::compare).orElseThrow();
        if (retired.contains(newest)) {
            throw new IllegalArgumentException("The newest secret key v" + newest + " encrypts and cannot be retired");
        }
        this.retired = Set.copyOf(retired);
    }

    public int currentVersion() {
        return keys.lastKey();
    }

    /** @param place where the value is stored (row and field); the same place must be given to decrypt it */
    public String encrypt(String plain, String place) {
        if (plain == null) {
            return null;
        }
        byte[] iv = new byte[IV_BYTES];
        random.nextBytes(iv);
        try {
            Cipher aes = Cipher.getInstance("AES/GCM/NoPadding");
            aes.init(Cipher.ENCRYPT_MODE, keys.lastEntry().getValue(), new GCMParameterSpec(TAG_BITS, iv));
            aes.updateAAD(place.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = aes.doFinal(plain.getBytes(StandardCharsets.UTF_8));
            return PREFIX + currentVersion() + ":" + Base64.getEncoder().encodeToString(ByteBuffer.allocate(iv.length + sealed.length)
                    .put(iv).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot encrypt", e);
        }
    }

    /**
     * @throws IllegalStateException when the value belongs to another place, was encrypted with a key not configured
     *                               here or retired, or was tampered with
     */
    public String decrypt(String stored, String place) {
        if (!isEncrypted(stored)) {
            return stored;
        }
        if (stored.startsWith(LEGACY_PREFIX)) {
            return open(LEGACY_KEY_VERSION, stored.substring(LEGACY_PREFIX.length()), null);
        }
        int colon = stored.indexOf(':', PREFIX.length());
        if (!stored.startsWith(PREFIX) || colon < 0) {
            throw new IllegalStateException("A stored secret has an unknown format");
        }
        int version;
        try {
            version = Integer.parseInt(stored.substring(PREFIX.length(), colon));
        } catch (NumberFormatException e) {
            throw new IllegalStateException("A stored secret names no key version");
        }
        return open(version, stored.substring(colon + 1), place);
    }

    private String open(int version, String packedBase64, String place) {
        if (retired.contains(version)) {
            throw new IllegalStateException("A stored secret is encrypted with the retired key v" + version
                    + " (switchboard.secret.retired-versions): re-enter it, or un-retire the key until it is re-encrypted");
        }
        SecretKey key = keys.get(version);
        if (key == null) {
            throw new IllegalStateException("A stored secret is encrypted with key v" + version
                    + ", which is not configured (switchboard.secret-keys)");
        }
        try {
            byte[] packed = Base64.getDecoder().decode(packedBase64);
            Cipher aes = Cipher.getInstance("AES/GCM/NoPadding");
            aes.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, packed, 0, IV_BYTES));
            if (place != null) {
                aes.updateAAD(place.getBytes(StandardCharsets.UTF_8));
            }
            return new String(aes.doFinal(packed, IV_BYTES, packed.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("Cannot decrypt a stored secret: another key v" + version
                    + " than the one it was encrypted with, a value moved from another place, or a tampered value", e);
        }
    }

    /** True for a value in one of the encrypted forms (of any key), false for plain text. */
    public static boolean isEncrypted(String value) {
        return value != null && value.startsWith("enc:");
    }

    /** True for a value encrypted with the newest key and bound to its place; false for what re-encryption rewrites. */
    public boolean isCurrent(String stored) {
        return stored != null && stored.startsWith(PREFIX + currentVersion() + ":");
    }

    /** Same names, each value encrypted for {@code place/<name>}; null in, null out. */
    public Map<String, String> encryptValues(Map<String, String> values, String place) {
        return values == null ? null : transform(values, place, true);
    }

    public Map<String, String> decryptValues(Map<String, String> values, String place) {
        return values == null ? null : transform(values, place, false);
    }

    /** True when every value of the map is {@link #isCurrent current}. */
    public boolean allCurrent(Map<String, String> values) {
        return values == null || values.values().stream().allMatch(this::isCurrent);
    }

    private Map<String, String> transform(Map<String, String> values, String place, boolean encrypt) {
        Map<String, String> result = new LinkedHashMap<>();
        values.forEach((name, value) -> {
            String at = place + "/" + name;
            result.put(name, encrypt ? encrypt(value, at) : decrypt(value, at));
        });
        return result;
    }
}
