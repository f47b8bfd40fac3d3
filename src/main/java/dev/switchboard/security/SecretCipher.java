package dev.switchboard.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts secrets at rest (server config header and env values) with AES-256-GCM.
 * Ciphertext is {@code enc:v1:<base64(iv | ciphertext+tag)>}; values without the prefix are taken as
 * plain text still awaiting encryption, so rows written before encryption existed keep working.
 * Obtain it by injection (produced by {@link SecretKeySource}).
 */
public final class SecretCipher {

    static final String PREFIX = "enc:v1:";
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecretKey key;
    private final SecureRandom random = new SecureRandom();

    SecretCipher(byte[] key) {
        if (key.length != 32) {
            throw new IllegalArgumentException("The secret key must be 32 bytes (AES-256), got " + key.length);
        }
        this.key = new SecretKeySpec(key, "AES");
    }

    public String encrypt(String plain) {
        if (plain == null || isEncrypted(plain)) {
            return plain;
        }
        byte[] iv = new byte[IV_BYTES];
        random.nextBytes(iv);
        try {
            Cipher aes = Cipher.getInstance("AES/GCM/NoPadding");
            aes.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
            byte[] sealed = aes.doFinal(plain.getBytes(StandardCharsets.UTF_8));
            return PREFIX + Base64.getEncoder().encodeToString(ByteBuffer.allocate(iv.length + sealed.length)
                    .put(iv).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot encrypt", e);
        }
    }

    /** @throws IllegalStateException when the value was encrypted with another key or was tampered with */
    public String decrypt(String stored) {
        if (!isEncrypted(stored)) {
            return stored;
        }
        try {
            byte[] packed = Base64.getDecoder().decode(stored.substring(PREFIX.length()));
            Cipher aes = Cipher.getInstance("AES/GCM/NoPadding");
            aes.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, packed, 0, IV_BYTES));
            return new String(aes.doFinal(packed, IV_BYTES, packed.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("Cannot decrypt a stored secret (wrong switchboard.secret-key?)", e);
        }
    }

    public static boolean isEncrypted(String value) {
        return value != null && value.startsWith(PREFIX);
    }

    /** Same keys, encrypted values; null in, null out. */
    public Map<String, String> encryptValues(Map<String, String> values) {
        return values == null ? null : transform(values, true);
    }

    public Map<String, String> decryptValues(Map<String, String> values) {
        return values == null ? null : transform(values, false);
    }

    private Map<String, String> transform(Map<String, String> values, boolean encrypt) {
        Map<String, String> result = new LinkedHashMap<>();
        values.forEach((name, value) -> result.put(name, encrypt ? encrypt(value) : decrypt(value)));
        return result;
    }
}
