package dev.switchboard.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * Checks a username and password against app_user. Unknown users, disabled users and wrong passwords
 * cost the same PBKDF2 work and give the same answer, so the response does not reveal which usernames exist.
 */
@ApplicationScoped
public class LocalLogin {

    @Inject
    LocalUsers users;

    private final PasswordHasher hasher = new PasswordHasher();
    private volatile String decoyHash;

    public Optional<TokenSubject> authenticate(String username, String password) {
        if (username == null || password == null) {
            return Optional.empty();
        }
        Optional<LocalUser> user = users.find(username);
        String storedHash = user.map(LocalUser::passwordHash).orElseGet(this::decoyHash);
        boolean matches = hasher.verify(password.toCharArray(), storedHash);
        return user.filter(u -> matches && !u.disabled()).map(LocalUser::tokenSubject);
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
