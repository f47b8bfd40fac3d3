package dev.switchboard.security;

import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sign-in throttle with the production defaults, on a clock the test moves. */
class SignInThrottleTest {

    static final SignInThrottle.Rules ACCOUNT = new SignInThrottle.Rules(3, Duration.ofSeconds(1), Duration.ofSeconds(30),
            10, Duration.ofMinutes(15), Duration.ofHours(1));
    static final SignInThrottle.Rules ADDRESS = new SignInThrottle.Rules(20, Duration.ofSeconds(1), Duration.ofSeconds(30),
            100, Duration.ofMinutes(15), Duration.ofHours(1));
    static final Instant T0 = Instant.parse("2026-11-25T04:00:00Z");

    @Test
    void delaysGrowAfterTheFreeFailuresThenTheAccountLocks() {
        SignInThrottle throttle = new SignInThrottle(ACCOUNT, ADDRESS, new LocalSignInTallies(2000));
        Instant now = T0;
        for (int i = 0; i < 3; i++) {
            assertNull(throttle.check("admin", "10.0.0.1", now), "free failure " + (i + 1));
            assertEquals(Set.of(), throttle.failed("admin", "10.0.0.1", now));
        }
        assertNull(throttle.check("admin", "10.0.0.1", now), "the 4th attempt is checked at once");
        throttle.failed("admin", "10.0.0.1", now);
        long[] waits = {1, 2, 4, 8, 16, 30};
        for (long wait : waits) {
            SignInThrottle.Wait refused = throttle.check("admin", "10.0.0.1", now);
            assertEquals(Duration.ofSeconds(wait), refused.retryAfter());
            assertFalse(refused.locked());
            assertTrue(refused.firstOfItsWait());
            assertFalse(throttle.check("admin", "10.0.0.1", now.plusMillis(10)).firstOfItsWait(), "reported once per wait");
            now = now.plusSeconds(wait);
            assertNull(throttle.check("admin", "10.0.0.1", now), "after " + wait + " s the next attempt is checked");
            Set<SignInThrottle.Scope> locked = throttle.failed("admin", "10.0.0.1", now);
            assertEquals(wait == 30 ? Set.of(SignInThrottle.Scope.ACCOUNT) : Set.of(), locked, "the 10th failure locks");
        }
        SignInThrottle.Wait lock = throttle.check("admin", "10.0.0.1", now);
        assertTrue(lock.locked());
        assertEquals(Duration.ofMinutes(15), lock.retryAfter());
        assertTrue(throttle.isLocked("admin", now));
        assertTrue(throttle.check("admin", "10.9.9.9", now.plusSeconds(60)).locked(), "the account is locked from every address");
        assertNull(throttle.check("bob", "10.0.0.1", now), "another account from the same address is not");
        assertNull(throttle.check("admin", "10.0.0.1", now.plus(Duration.ofMinutes(15))), "the lock runs out");
        assertFalse(throttle.isLocked("admin", now.plus(Duration.ofMinutes(15))));
        assertNull(throttle.check("admin", "10.0.0.1", now.plus(Duration.ofMinutes(15)).plusMillis(1)), "and starts from zero");
    }

    @Test
    void anAdministratorLiftsALockAndASuccessResetsTheAccountOnly() {
        SignInThrottle throttle = new SignInThrottle(ACCOUNT, ADDRESS, new LocalSignInTallies(2000));
        for (int i = 0; i < 10; i++) {
            throttle.failed("alice", "10.0.0.2", T0);
        }
        assertTrue(throttle.check("alice", "10.0.0.2", T0).locked());
        assertTrue(throttle.unlock("alice", T0));
        assertNull(throttle.check("alice", "10.0.0.2", T0), "lifted");
        assertFalse(throttle.unlock("alice", T0), "nothing left to lift");

        for (int i = 0; i < 5; i++) {
            throttle.failed("carol", "10.0.0.3", T0);
        }
        throttle.succeeded("carol");
        assertNull(throttle.check("carol", "10.0.0.3", T0), "a success resets the account's count");
        for (int i = 0; i < 16; i++) {
            throttle.failed("dave" + i, "10.0.0.3", T0);
        }
        // 21 failures from 10.0.0.3 now (5 + 16): one past the address's free ones
        assertEquals(Duration.ofSeconds(1), throttle.check("someone-else", "10.0.0.3", T0).retryAfter(),
                "the address is throttled whatever the name, and carol's success did not reset it");
        assertNull(throttle.check("someone-else", "10.0.0.4", T0));
    }

    @Test
    void addressesLockToo() {
        SignInThrottle throttle = new SignInThrottle(ACCOUNT, ADDRESS, new LocalSignInTallies(2000));
        Set<SignInThrottle.Scope> last = Set.of();
        for (int i = 0; i < 100; i++) {
            last = throttle.failed("name-" + i, "10.0.0.5", T0);
        }
        assertEquals(Set.of(SignInThrottle.Scope.ADDRESS), last, "the 100th failure from one address locks it");
        assertTrue(throttle.check("anyone", "10.0.0.5", T0).locked());
    }

    @Test
    void quietCountsAreForgottenAndMemoryIsBounded() {
        SignInThrottle throttle = new SignInThrottle(ACCOUNT, ADDRESS, new LocalSignInTallies(6));
        for (int i = 0; i < 5; i++) {
            throttle.failed("erin", "10.0.0.6", T0);
        }
        assertEquals(Duration.ofSeconds(2), throttle.check("erin", "10.0.0.6", T0).retryAfter());
        assertNull(throttle.check("erin", "10.0.0.6", T0.plus(Duration.ofHours(1))), "an hour without failures");
        for (int i = 0; i < 5; i++) {
            throttle.failed("frank", "10.0.0.7", T0);
        }
        for (int i = 0; i < 3; i++) {
            throttle.failed("spray-" + i, "10.1.0." + i, T0);
        }
        assertNull(throttle.check("frank", "10.0.0.7", T0), "at most 6 tallies (3 sign-ins of account and address): the oldest went first");
    }
}
