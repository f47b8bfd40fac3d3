package dev.switchboard.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** AES-256-GCM under versioned keys, each value bound to its place; rotation, retired keys, values of before. */
public class SecretCipherTest {

    static final String PLACE = "mcp_server/7/headers/Authorization";
    private final SecretCipher cipher = cipher(Map.of(1, key(1)));

    static SecretCipher cipher(Map<Integer, byte[]> keys, Integer... retired) {
        return new SecretCipher(keys, Set.of(retired));
    }

    @Test
    void roundTripNamesItsKey() {
        String sealed = cipher.encrypt("Bearer sk-live-1234567890", PLACE);
        assertTrue(sealed.startsWith("enc:v2:1:"), sealed);
        assertFalse(sealed.contains("sk-live"));
        assertEquals("Bearer sk-live-1234567890", cipher.decrypt(sealed, PLACE));
        assertEquals("", cipher.decrypt(cipher.encrypt("", PLACE), PLACE));
        assertEquals("密钥 ✓", cipher.decrypt(cipher.encrypt("密钥 ✓", PLACE), PLACE));
        assertTrue(cipher.isCurrent(sealed));
    }

    @Test
    void freshIvEveryTime() {
        assertNotEquals(cipher.encrypt("same", PLACE), cipher.encrypt("same", PLACE));
        byte[] packed = Base64.getDecoder().decode(cipher.encrypt("abc", PLACE).substring("enc:v2:1:".length()));
        assertEquals(12 + 3 + 16, packed.length, "iv | ciphertext | 128-bit tag");
    }

    /** The associated data: a value copied into another row, field or name does not decrypt there. */
    @Test
    void aValueMovedToAnotherPlaceIsRefused() {
        String sealed = cipher.encrypt("row 7's token", PLACE);
        for (String elsewhere : List.of("mcp_server/8/headers/Authorization", "mcp_server/7/env/Authorization",
                "mcp_server/7/headers/X-Api-Key", "mcp_server/70/headers/Authorization", "")) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> cipher.decrypt(sealed, elsewhere), elsewhere);
            assertTrue(e.getMessage().contains("another place"), e.getMessage());
        }
    }

    @Test
    void theNewestKeyEncryptsOlderOnesStillDecrypt() {
        String underV1 = cipher.encrypt("old", PLACE);
        SecretCipher rotated = cipher(Map.of(1, key(1), 2, key(2)));
        assertEquals(2, rotated.currentVersion());
        assertEquals("old", rotated.decrypt(underV1, PLACE));
        assertFalse(rotated.isCurrent(underV1), "re-encryption rewrites it");
        String underV2 = rotated.encrypt("new", PLACE);
        assertTrue(underV2.startsWith("enc:v2:2:"), underV2);
        assertTrue(rotated.isCurrent(underV2));
        IllegalStateException unknown = assertThrows(IllegalStateException.class, () -> cipher.decrypt(underV2, PLACE));
        assertTrue(unknown.getMessage().contains("key v2, which is not configured"), unknown.getMessage());
    }

    @Test
    void aRetiredKeyIsRefused() {
        String underV1 = cipher.encrypt("old", PLACE);
        SecretCipher retiring = cipher(Map.of(1, key(1), 2, key(2)), 1);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> retiring.decrypt(underV1, PLACE));
        assertTrue(e.getMessage().contains("retired key v1"), e.getMessage());
        IllegalArgumentException newest = assertThrows(IllegalArgumentException.class,
                () -> cipher(Map.of(1, key(1), 2, key(2)), 2));
        assertTrue(newest.getMessage().contains("newest secret key v2"), newest.getMessage());
        assertThrows(IllegalArgumentException.class, () -> cipher(Map.of(1, key(1)), 1));
    }

    /** Values of before: {@code enc:v1:} under the single key, no associated data. Read as key version 1, not current. */
    @Test
    void valuesOfBeforeAreReadWithKeyOneAndAreNotCurrent() throws Exception {
        String legacy = legacy("sk-legacy", key(1));
        assertEquals("sk-legacy", cipher.decrypt(legacy, PLACE));
        assertFalse(cipher.isCurrent(legacy));
        assertEquals("sk-legacy", cipher(Map.of(1, key(1), 2, key(2))).decrypt(legacy, PLACE));
        assertThrows(IllegalStateException.class, () -> cipher(Map.of(1, key(1), 2, key(2)), 1).decrypt(legacy, PLACE));
        assertEquals("legacy-plain", cipher.decrypt("legacy-plain", PLACE), "plain text of before encryption existed");
        assertFalse(cipher.isCurrent("legacy-plain"));
    }

    @Test
    void anotherKeyOrATamperedValueFailsLoudly() {
        String sealed = cipher.encrypt("secret", PLACE);
        assertThrows(IllegalStateException.class, () -> cipher(Map.of(1, key(9))).decrypt(sealed, PLACE));
        byte[] packed = Base64.getDecoder().decode(sealed.substring("enc:v2:1:".length()));
        packed[packed.length - 1] ^= 1;
        assertThrows(IllegalStateException.class,
                () -> cipher.decrypt("enc:v2:1:" + Base64.getEncoder().encodeToString(packed), PLACE));
        assertThrows(IllegalStateException.class, () -> cipher.decrypt("enc:v2:1:not base64!", PLACE));
        assertThrows(IllegalStateException.class, () -> cipher.decrypt("enc:v2:x:AAAA", PLACE));
        assertThrows(IllegalStateException.class, () -> cipher.decrypt("enc:v3:1:AAAA", PLACE));
        assertNull(cipher.encrypt(null, PLACE));
        assertNull(cipher.decrypt(null, PLACE));
    }

    @Test
    void keysMustBe256BitsWithVersionsFromOne() {
        assertThrows(IllegalArgumentException.class, () -> cipher(Map.of(1, new byte[16])));
        assertThrows(IllegalArgumentException.class, () -> cipher(Map.of(0, key(1))));
        assertThrows(IllegalArgumentException.class, () -> cipher(Map.of()));
    }

    @Test
    void mapsKeepTheirNamesAndOrderAndBindEachName() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("B_TOKEN", "b-secret");
        env.put("A_TOKEN", "a-secret");
        Map<String, String> sealed = cipher.encryptValues(env, "mcp_server/3/env");
        assertEquals(List.of("B_TOKEN", "A_TOKEN"), List.copyOf(sealed.keySet()));
        assertTrue(cipher.allCurrent(sealed));
        assertEquals(env, cipher.decryptValues(sealed, "mcp_server/3/env"));
        Map<String, String> swapped = new LinkedHashMap<>();
        swapped.put("B_TOKEN", sealed.get("A_TOKEN"));
        assertThrows(IllegalStateException.class, () -> cipher.decryptValues(swapped, "mcp_server/3/env"),
                "a value moved to another name of the same row");
        assertNull(cipher.encryptValues(null, "x"));
        assertNull(cipher.decryptValues(null, "x"));
    }

    @Test
    void keyConfigurationParses() {
        Map<Integer, byte[]> keys = VersionedKeys.parse("v1=" + Base64.getEncoder().encodeToString(key(1)) + ", v2="
                + Base64.getEncoder().encodeToString(key(2)), "switchboard.secret-keys");
        assertEquals(Set.of(1, 2), keys.keySet());
        assertTrue(Arrays.equals(key(2), keys.get(2)));
        assertEquals(Set.of(1, 3), VersionedKeys.versions("1, v3", "switchboard.secret.retired-versions"));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> VersionedKeys.parse("key1=abc", "switchboard.secret-keys"));
        assertFalse(bad.getMessage().contains("abc"), "no key material in errors");
        assertThrows(IllegalArgumentException.class, () -> VersionedKeys.versions("one", "x"));
    }

    /** A value as the cipher of before wrote it: {@code enc:v1:<base64(iv | ciphertext+tag)>}, no associated data. */
    public static String legacy(String plain, byte[] key) throws Exception {
        byte[] iv = new byte[12];
        Arrays.fill(iv, (byte) 7);
        Cipher aes = Cipher.getInstance("AES/GCM/NoPadding");
        aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, iv));
        byte[] sealed = aes.doFinal(plain.getBytes(StandardCharsets.UTF_8));
        return "enc:v1:" + Base64.getEncoder().encodeToString(ByteBuffer.allocate(12 + sealed.length).put(iv).put(sealed).array());
    }

    public static byte[] key(int fill) {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) fill);
        return key;
    }
}
