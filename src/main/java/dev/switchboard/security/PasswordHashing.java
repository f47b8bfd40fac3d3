package dev.switchboard.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The server's {@link PasswordHasher}, at {@code switchboard.password.iterations} (default 600,000): every password
 * set from now on is hashed at that cost, and a stored hash of a lower one is replaced at its user's next sign-in.
 */
@ApplicationScoped
public class PasswordHashing {

    @Inject
    @ConfigProperty(name = "switchboard.password.iterations", defaultValue = "" + PasswordHasher.DEFAULT_ITERATIONS)
    int iterations;

    @Produces
    @Singleton
    PasswordHasher passwordHasher() {
        return new PasswordHasher(iterations);
    }
}
