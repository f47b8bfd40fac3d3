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

    @Test
    void hashesOfAnotherSchemeOrALowerCostNeedARehash() {
        assertTrue(hasher.needsRehash(new PasswordHasher(999).hash("pw".toCharArray())), "fewer iterations");
        assertFalse(hasher.needsRehash(hasher.hash("pw".toCharArray())), "today's cost");
        assertFalse(hasher.needsRehash(new PasswordHasher(2_000).hash("pw".toCharArray())), "a higher cost is kept");
        assertTrue(hasher.needsRehash("md5$1$a$b"));
        assertTrue(hasher.needsRehash(null));
        assertTrue(new PasswordHasher().needsRehash("pbkdf2-sha256$310000$AAAA$AAAA"), "the former default is upgraded");
    }

    /** What a sign-in costs at the default work factor on this machine (printed; the README quotes it). */
    @Test
    void theDefaultCostIs600000Iterations() {
        PasswordHasher production = new PasswordHasher();
        String hash = production.hash("pw".toCharArray());
        assertTrue(hash.startsWith("pbkdf2-sha256$600000$"), hash);
        long start = System.nanoTime();
        assertTrue(production.verify("pw".toCharArray(), hash));
        System.out.printf("PBKDF2-HMAC-SHA256 at 600,000 iterations: one verification took %d ms%n",
                (System.nanoTime() - start) / 1_000_000);
    }
}
