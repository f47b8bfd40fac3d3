package dev.switchboard.cluster;

import com.hazelcast.map.IMap;
import dev.switchboard.security.SignInTallies;
import dev.switchboard.security.SignInTally;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Sign-in tallies in a Hazelcast map: a change holds the key's cluster-wide lock while it reads and writes, so failures
 * on two members at once both count. Sign-ins are rare and cost far more (the password hash) than these round trips.
 */
final class HazelcastSignInTallies implements SignInTallies {

    private final IMap<String, SignInTally> tallies;

    HazelcastSignInTallies(IMap<String, SignInTally> tallies) {
        this.tallies = tallies;
    }

    @Override
    public void update(String key, UnaryOperator<SignInTally> change, Duration keepFor) {
        tallies.lock(key);
        try {
            SignInTally current = tallies.get(key);
            SignInTally next = change.apply(current);
            if (next == null) {
                if (current != null) {
                    tallies.delete(key);
                }
            } else if (!next.equals(current)) {
                tallies.set(key, next, keepFor.toMillis(), TimeUnit.MILLISECONDS);
            }
        } finally {
            tallies.unlock(key);
        }
    }
}
