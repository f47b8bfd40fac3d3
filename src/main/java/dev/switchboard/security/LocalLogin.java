package dev.switchboard.security;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Checks a username and password against app_user: the one place a password is checked. Unknown users, disabled
 * users and wrong passwords cost the same PBKDF2 work and give the same answer, so the response does not reveal which
 * usernames exist. Failures are throttled per account and per client address ({@link SignInThrottle}): a throttled
 * attempt is refused before its password is looked at, with the same answer whether the account exists or not.
 * A hash stored at a lower cost than {@link PasswordHashing}'s is replaced at the next successful sign-in.
 */
@ApplicationScoped
public class LocalLogin {

    /** Names kept by the throttle and the audit trail (its subject column) are cut to this length. */
    private static final int MAX_NAME = 255;

    /** What a sign-in attempt came to. */
    public sealed interface Outcome {
    }

    public record Accepted(TokenSubject who) implements Outcome {
    }

    /** Wrong password, unknown or disabled user: one answer for all three. */
    public record Refused() implements Outcome {
    }

    /** Too many failures for this account or from this address: try again after {@code retryAfter}. */
    public record Throttled(Duration retryAfter) implements Outcome {
    }

    @Inject
    LocalUsers users;

    @Inject
    DefaultTenant defaultTenant;

    @Inject
    PasswordHasher hasher;

    @Inject
    Event<SignInEvent> events;

    @Inject
    SignInTallies tallies;

    @Inject
    @ConfigProperty(name = "switchboard.login.free-failures", defaultValue = "3")
    int freeFailures;

    @Inject
    @ConfigProperty(name = "switchboard.login.first-delay", defaultValue = "PT1S")
    Duration firstDelay;

    @Inject
    @ConfigProperty(name = "switchboard.login.max-delay", defaultValue = "PT30S")
    Duration maxDelay;

    @Inject
    @ConfigProperty(name = "switchboard.login.lock-after", defaultValue = "10")
    int lockAfter;

    @Inject
    @ConfigProperty(name = "switchboard.login.lock-duration", defaultValue = "PT15M")
    Duration lockDuration;

    @Inject
    @ConfigProperty(name = "switchboard.login.address-free-failures", defaultValue = "20")
    int addressFreeFailures;

    @Inject
    @ConfigProperty(name = "switchboard.login.address-lock-after", defaultValue = "100")
    int addressLockAfter;

    @Inject
    @ConfigProperty(name = "switchboard.login.forget-after", defaultValue = "PT1H")
    Duration forgetAfter;

    private final Clock clock = Clock.systemUTC();
    private SignInThrottle throttle;
    private volatile String decoyHash;

    @PostConstruct
    void init() {
        throttle = new SignInThrottle(
                new SignInThrottle.Rules(freeFailures, firstDelay, maxDelay, lockAfter, lockDuration, forgetAfter),
                new SignInThrottle.Rules(addressFreeFailures, firstDelay, maxDelay, addressLockAfter, lockDuration, forgetAfter),
                tallies);
    }

    /** @param address the client's address, as the HTTP request gives it */
    public Outcome authenticate(String username, String password, String address) {
        if (username == null || password == null) {
            return new Refused();
        }
        // no user has a name this long (64 at most): the cut bounds what the throttle keeps for made-up names
        String account = cut(LocalUsers.normalize(username));
        SignInThrottle.Wait wait = throttle.check(account, address, clock.instant());
        if (wait != null) {
            if (wait.firstOfItsWait()) {
                fire(SignInEvent.Kind.THROTTLED, account, address);
            }
            return new Throttled(wait.retryAfter());
        }
        Optional<LocalUser> user = users.find(username);
        String storedHash = user.map(LocalUser::passwordHash).orElseGet(this::decoyHash);
        boolean matches = hasher.verify(password.toCharArray(), storedHash);
        Optional<TokenSubject> accepted = user.filter(u -> matches && !u.disabled()).map(LocalUser::tokenSubject);
        if (accepted.isPresent()) {
            throttle.succeeded(account);
            if (hasher.needsRehash(user.get().passwordHash())) {
                // the password is at hand only now: store it at today's cost
                users.replacePasswordHash(user.get().username(), hasher.hash(password.toCharArray()));
            }
            return new Accepted(accepted.get());
        }
        String tenant = user.map(LocalUser::tenantId).orElse(defaultTenant.id());
        Set<SignInThrottle.Scope> locked = throttle.failed(account, address, clock.instant());
        fire(SignInEvent.Kind.INVALID_CREDENTIALS, tenant, account, address);
        if (locked.contains(SignInThrottle.Scope.ACCOUNT)) {
            fire(SignInEvent.Kind.ACCOUNT_LOCKED, tenant, account, address);
        }
        if (locked.contains(SignInThrottle.Scope.ADDRESS)) {
            fire(SignInEvent.Kind.ADDRESS_LOCKED, tenant, account, address);
        }
        return new Refused();
    }

    /** Lifts an account's sign-in lock (and forgets its failures); true when it was locked. */
    public boolean unlock(LocalUser user, String admin) {
        boolean wasLocked = throttle.unlock(user.username(), clock.instant());
        events.fire(new SignInEvent(SignInEvent.Kind.UNLOCKED, user.tenantId(), user.username(), null, admin));
        return wasLocked;
    }

    public boolean isLocked(LocalUser user) {
        return throttle.isLocked(user.username(), clock.instant());
    }

    private void fire(SignInEvent.Kind kind, String account, String address) {
        fire(kind, users.find(account).map(LocalUser::tenantId).orElse(defaultTenant.id()), account, address);
    }

    private void fire(SignInEvent.Kind kind, String tenant, String account, String address) {
        events.fire(new SignInEvent(kind, tenant, account, address, null));
    }

    private static String cut(String name) {
        return name.length() > MAX_NAME ? name.substring(0, MAX_NAME) : name;
    }

    private String decoyHash() {
        String hash = decoyHash;
        if (hash == null) {
            hash = hasher.hash("decoy-password-for-unknown-users".toCharArray());
            decoyHash = hash;
        }
        return hash;
    }
}
