package dev.switchboard.security;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A key the database confirmed is trusted for a few seconds, never across a revocation. */
class VerifiedApiKeysTest {

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final VerifiedApiKeys keys = new VerifiedApiKeys(Duration.ofSeconds(5), now::get);

    @Test
    void aConfirmedKeyIsTrustedUntilItIsDueForAnotherCheck() {
        assertFalse(keys.recentlyVerified("k1"));
        keys.remember("k1", keys.revocationCount());
        assertTrue(keys.recentlyVerified("k1"));
        assertFalse(keys.recentlyVerified("k2"));
        now.addAndGet(4_999);
        assertTrue(keys.recentlyVerified("k1"));
        now.addAndGet(1);
        assertFalse(keys.recentlyVerified("k1"));
    }

    @Test
    void aRevocationForgetsEveryKeyAtOnce() {
        keys.remember("k1", keys.revocationCount());
        keys.remember("k2", keys.revocationCount());
        keys.revoking();
        assertFalse(keys.recentlyVerified("k1"));
        assertFalse(keys.recentlyVerified("k2"));
    }

    @Test
    void anAnswerReadWhileARevocationHappenedIsNotRemembered() {
        long before = keys.revocationCount();
        keys.revoking(); // the revocation lands between the database read and remember
        keys.remember("k1", before);
        assertFalse(keys.recentlyVerified("k1"));
    }

    @Test
    void zeroMeansTheDatabaseIsAskedEveryTime() {
        VerifiedApiKeys always = new VerifiedApiKeys(Duration.ZERO, now::get);
        always.remember("k1", always.revocationCount());
        assertFalse(always.recentlyVerified("k1"));
    }

    @Test
    void memoryStaysBounded() {
        for (int i = 0; i <= VerifiedApiKeys.MAX_ENTRIES; i++) {
            keys.remember("k" + i, keys.revocationCount());
        }
        assertFalse(keys.recentlyVerified("k0"));
        assertTrue(keys.recentlyVerified("k" + VerifiedApiKeys.MAX_ENTRIES));
    }
}
