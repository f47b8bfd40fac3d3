package dev.switchboard.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

class ApiKeysTest {

    @Test
    void hashIsSha256Hex() {
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", ApiKeys.sha256Hex("abc"));
    }

    @Test
    void displayPrefixShowsTheDistinguishingEnd() {
        assertEquals("…56789abc", ApiKeys.displayPrefix("eyJhbGciOiJSUzI1NiJ9.e30.0123456789abc"));
    }

    @Test
    void rolesMapToGroups() {
        assertEquals(Set.of("admin", "user"), Role.of("admin").groups());
        assertEquals(Set.of("user"), Role.of("user").groups());
        assertThrows(IllegalArgumentException.class, () -> Role.of("root"));
    }

    @Test
    void generatedAdminPasswordsAreLongAndDistinct() {
        String password = AdminBootstrap.generatePassword();
        assertEquals(20, password.length());
        assertTrue(password.chars().allMatch(Character::isLetterOrDigit));
        assertFalse(password.equals(AdminBootstrap.generatePassword()));
    }
}
