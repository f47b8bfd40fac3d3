package dev.switchboard.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SecretCipherTest {

    private final SecretCipher cipher = new SecretCipher(key(1));

    @Test
    void roundTrip() {
        String sealed = cipher.encrypt("Bearer sk-live-1234567890");
        assertTrue(sealed.startsWith("enc:v1:"), sealed);
        assertFalse(sealed.contains("sk-live"));
        assertEquals("Bearer sk-live-1234567890", cipher.decrypt(sealed));
        assertEquals("", cipher.decrypt(cipher.encrypt("")));
        assertEquals("密钥 ✓", cipher.decrypt(cipher.encrypt("密钥 ✓")));
    }

    @Test
    void freshIvEveryTime() {
        assertNotEquals(cipher.encrypt("same"), cipher.encrypt("same"));
        byte[] packed = Base64.getDecoder().decode(cipher.encrypt("abc").substring(SecretCipher.PREFIX.length()));
        assertEquals(12 + 3 + 16, packed.length, "iv | ciphertext | 128-bit tag");
    }

    @Test
    void plainValuesPassThroughAndAreNotEncryptedTwice() {
        assertEquals("legacy-plain", cipher.decrypt("legacy-plain"));
        String sealed = cipher.encrypt("x");
        assertEquals(sealed, cipher.encrypt(sealed));
        assertNull(cipher.encrypt(null));
        assertNull(cipher.decrypt(null));
    }

    @Test
    void anotherKeyOrATamperedValueFailsLoudly() {
        String sealed = cipher.encrypt("secret");
        assertThrows(IllegalStateException.class, () -> new SecretCipher(key(2)).decrypt(sealed));
        byte[] packed = Base64.getDecoder().decode(sealed.substring(SecretCipher.PREFIX.length()));
        packed[packed.length - 1] ^= 1;
        assertThrows(IllegalStateException.class,
                () -> cipher.decrypt(SecretCipher.PREFIX + Base64.getEncoder().encodeToString(packed)));
        assertThrows(IllegalStateException.class, () -> cipher.decrypt("enc:v1:not base64!"));
    }

    @Test
    void keyMustBe256Bits() {
        assertThrows(IllegalArgumentException.class, () -> new SecretCipher(new byte[16]));
    }

    @Test
    void mapsKeepTheirKeysAndOrder() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("B_TOKEN", "b-secret");
        env.put("A_TOKEN", "a-secret");
        Map<String, String> sealed = cipher.encryptValues(env);
        assertEquals(List.of("B_TOKEN", "A_TOKEN"), List.copyOf(sealed.keySet()));
        assertTrue(sealed.values().stream().allMatch(SecretCipher::isEncrypted));
        assertEquals(env, cipher.decryptValues(sealed));
        assertNull(cipher.encryptValues(null));
        assertNull(cipher.decryptValues(null));
    }

    private static byte[] key(int fill) {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) fill);
        return key;
    }
}
