package dev.switchboard.security;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PasswordHasherTest {

    private final PasswordHasher hasher = new PasswordHasher(1_000);

    @Test
    void verifiesTheRightPasswordOnly() {
        String hash = hasher.hash("correct horse".toCharArray());
        assertTrue(hasher.verify("correct horse".toCharArray(), hash));
        assertFalse(hasher.verify("correct horsE".toCharArray(), hash));
        assertFalse(hasher.verify("".toCharArray(), hash));
    }

    @Test
    void saltMakesEveryHashDifferent() {
        assertNotEquals(hasher.hash("same".toCharArray()), hasher.hash("same".toCharArray()));
    }

    @Test
    void hashDescribesItsSchemeAndWorkFactor() {
        String hash = hasher.hash("pw".toCharArray());
        assertTrue(hash.startsWith("pbkdf2-sha256$1000$"), hash);
        assertTrue(new PasswordHasher().hash("pw".toCharArray())
                .startsWith("pbkdf2-sha256$" + PasswordHasher.DEFAULT_ITERATIONS + "$"));
    }

    @Test
    void hashesWithAnotherWorkFactorStillVerify() {
        String older = new PasswordHasher(500).hash("pw".toCharArray());
        assertTrue(hasher.verify("pw".toCharArray(), older));
    }

    @Test
    void malformedStoredHashesNeverMatch() {
        for (String stored : new String[] {null, "", "plain", "md5$1$a$b", "pbkdf2-sha256$x$AAAA$AAAA",
                "pbkdf2-sha256$1000$!!!$AAAA"}) {
            assertFalse(hasher.verify("pw".toCharArray(), stored), String.valueOf(stored));
        }
    }
}
