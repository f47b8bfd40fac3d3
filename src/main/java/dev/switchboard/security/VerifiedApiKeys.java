package dev.switchboard.security;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * API keys the database said were active a moment ago, so a client calling many times a second costs one lookup
 * every few seconds instead of a transaction per call (the lookup was ~9% of a governed gateway call's CPU).
 * A revocation on this server forgets every entry at once, again when its transaction ends, and a check that was
 * reading the database while a revocation happened does not remember its answer; another server of a cluster
 * notices within {@code switchboard.api-keys.recheck-after} (PT5S; PT0S checks the database on every request).
 */
@ApplicationScoped
public class VerifiedApiKeys {

    /** Past this many keys the memory is emptied rather than searched for the oldest: keys are few in practice. */
    static final int MAX_ENTRIES = 10_000;

    @Inject
    @ConfigProperty(name = "switchboard.api-keys.recheck-after", defaultValue = "PT5S")
    Duration recheckAfter;

    @Resource
    TransactionSynchronizationRegistry transactions;

    private final ConcurrentHashMap<String, Long> verifiedAt = new ConcurrentHashMap<>();
    private final AtomicLong revocations = new AtomicLong();
    private LongSupplier clock = System::currentTimeMillis;

    public VerifiedApiKeys() {
    }

    VerifiedApiKeys(Duration recheckAfter, LongSupplier clock) {
        this.recheckAfter = recheckAfter;
        this.clock = clock;
    }

    /** Taken before asking the database; {@link #remember} needs it to tell whether a revocation came in between. */
    long revocationCount() {
        return revocations.get();
    }

    boolean recentlyVerified(String keyHash) {
        Long at = verifiedAt.get(keyHash);
        return at != null && clock.getAsLong() - at < recheckAfter.toMillis();
    }

    /** Remembers that the database found the key active, unless a revocation happened since {@code countBefore}. */
    void remember(String keyHash, long countBefore) {
        if (recheckAfter.isZero() || recheckAfter.isNegative()) {
            return;
        }
        if (verifiedAt.size() >= MAX_ENTRIES) {
            verifiedAt.clear();
        }
        verifiedAt.put(keyHash, clock.getAsLong());
        if (revocations.get() != countBefore) {
            verifiedAt.remove(keyHash);
        }
    }

    /** Called by a revocation inside its transaction: forgets now, and again once the transaction has ended. */
    void revoking() {
        forgetAll();
        if (transactions != null && transactions.getTransactionKey() != null) {
            transactions.registerInterposedSynchronization(new Synchronization() {
                @Override
                public void beforeCompletion() {
                    // nothing before the commit: the rows are not revoked for other readers yet
                }

                @Override
                public void afterCompletion(int status) {
                    if (status == Status.STATUS_COMMITTED || status == Status.STATUS_ROLLEDBACK) {
                        forgetAll();
                    }
                }
            });
        }
    }

    private void forgetAll() {
        revocations.incrementAndGet();
        verifiedAt.clear();
    }
}
