package dev.switchboard.security;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import java.security.SecureRandom;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Makes sure the embedded mode can be logged into: when no admin exists, creates user "admin" with
 * {@code switchboard.admin.password} (env SWITCHBOARD_ADMIN_PASSWORD), or with a generated password
 * printed once. Runs after the schema migrations.
 */
@Singleton
@Startup
@DependsOn("DatabaseMigrator")
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class AdminBootstrap {

    private static final Logger LOG = Logger.getLogger(AdminBootstrap.class.getName());
    static final String ADMIN_USERNAME = "admin";
    private static final String ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    private static final int GENERATED_LENGTH = 20;

    @Inject
    LocalUsers users;

    @Inject
    PasswordHasher hasher;

    @Inject
    @ConfigProperty(name = "switchboard.admin.password")
    Optional<String> configuredPassword;

    @Inject
    @ConfigProperty(name = "switchboard.default-tenant", defaultValue = "default")
    String defaultTenant;

    @PostConstruct
    void ensureAdmin() {
        if (users.hasActiveAdmin()) {
            return;
        }
        boolean generated = configuredPassword.map(String::isBlank).orElse(true);
        String password = generated ? generatePassword() : configuredPassword.get();
        try {
            if (users.create(ADMIN_USERNAME, hasher.hash(password.toCharArray()), Role.ADMIN, defaultTenant)
                    .isEmpty()) {
                LOG.severe("No active admin exists and the username '" + ADMIN_USERNAME
                        + "' is taken by a non-admin user; create an admin by hand.");
                return;
            }
        } catch (RuntimeException e) {
            // typically a second instance created the admin at the same moment
            LOG.log(Level.WARNING, "Could not create the bootstrap admin user", e);
            return;
        }
        if (generated) {
            LOG.warning("\n"
                    + "==================================================================\n"
                    + "  Switchboard created the administrator account.\n"
                    + "    username: " + ADMIN_USERNAME + "\n"
                    + "    password: " + password + "\n"
                    + "  This password is shown only once. Set SWITCHBOARD_ADMIN_PASSWORD\n"
                    + "  to choose it yourself on a fresh database.\n"
                    + "==================================================================");
        } else {
            LOG.info("Created the administrator account '" + ADMIN_USERNAME + "' with the configured password.");
        }
    }

    static String generatePassword() {
        SecureRandom random = new SecureRandom();
        StringBuilder password = new StringBuilder(GENERATED_LENGTH);
        for (int i = 0; i < GENERATED_LENGTH; i++) {
            password.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return password.toString();
    }
}
