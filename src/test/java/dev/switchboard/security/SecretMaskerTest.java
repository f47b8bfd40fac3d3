package dev.switchboard.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SecretMaskerTest {

    private final SecretMasker masker = new SecretMasker();

    @Test
    void longSecretsShowOnlyTheirLastTwoCharacters() {
        assertEquals("••••••89", masker.mask("sk-123456789"));
        assertEquals("••••••yz", masker.mask("Bearer abcdefghijklmnopqrstuvwxyz"));
    }

    @Test
    void shortSecretsShowNothing() {
        assertEquals("••••••", masker.mask("12345678901"));
        assertEquals("••••••", masker.mask("x"));
        assertEquals("••••••", masker.mask(""));
        assertNull(masker.mask(null));
    }

    @Test
    void ciphertextIsMaskedWithoutATail() {
        assertEquals("••••••", masker.mask(new SecretCipher(java.util.Map.of(1, new byte[32]), java.util.Set.of()).encrypt("a-long-secret-value", "mcp_server/1/headers/X")));
    }

    @Test
    void mapsKeepTheirKeys() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer abcdefghijkl");
        headers.put("X-Short", "abc");
        assertEquals(Map.of("Authorization", "••••••kl", "X-Short", "••••••"), masker.maskValues(headers));
        assertNull(masker.maskValues(null));
    }
}
