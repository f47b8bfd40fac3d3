package dev.switchboard.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Supplies the {@link SecretCipher}: key from {@code switchboard.secret-key} (env SWITCHBOARD_SECRET_KEY,
 * base64 of 32 bytes), else a key generated once into {@code <data-dir>/secret.key}.
 */
@ApplicationScoped
public class SecretKeySource {

    private static final Logger LOG = Logger.getLogger(SecretKeySource.class.getName());
    static final String FILE_NAME = "secret.key";

    @Inject
    @ConfigProperty(name = "switchboard.secret-key")
    Optional<String> configuredKey;

    @Inject
    DataDirectory dataDirectory;

    @Produces
    @Singleton
    SecretCipher secretCipher() {
        if (configuredKey.isPresent() && !configuredKey.get().isBlank()) {
            return new SecretCipher(Base64.getDecoder().decode(configuredKey.get().trim()));
        }
        Path file = dataDirectory.resolve(FILE_NAME);
        LOG.warning(() -> "switchboard.secret-key (env SWITCHBOARD_SECRET_KEY) is not set: secrets are encrypted with"
                + " the key in " + file + ". Set it in production, and back it up: without it stored secrets are lost.");
        byte[] stored = OwnerOnlyFiles.readOrCreate(file, SecretKeySource::newEncodedKey);
        return new SecretCipher(Base64.getDecoder().decode(new String(stored, StandardCharsets.US_ASCII).trim()));
    }

    private static byte[] newEncodedKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return (Base64.getEncoder().encodeToString(key) + "\n").getBytes(StandardCharsets.US_ASCII);
    }
}
