package dev.switchboard.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Supplies the {@link SecretCipher} and its keys:
 * <ul>
 * <li>{@code switchboard.secret-keys} (env SWITCHBOARD_SECRET_KEYS): {@code v1=<base64>,v2=<base64>}, each 32 bytes;
 * the highest version encrypts, the others decrypt what is not re-encrypted yet;</li>
 * <li>{@code switchboard.secret-key} (env SWITCHBOARD_SECRET_KEY), the single key of before: version 1 unless
 * {@code switchboard.secret-keys} names a v1 itself;</li>
 * <li>with neither, a key generated once into {@code <data-dir>/secret.key}, version 1; an existing file stays
 * version 1 next to configured keys that name no v1, so an installation that moves to configured keys keeps its
 * stored secrets;</li>
 * <li>{@code switchboard.secret.retired-versions} (env SWITCHBOARD_SECRET_RETIRED_VERSIONS): {@code 1,2}, keys that
 * must no longer decrypt (values still under them are refused).</li>
 * </ul>
 */
@ApplicationScoped
public class SecretKeySource {

    private static final Logger LOG = Logger.getLogger(SecretKeySource.class.getName());
    static final String FILE_NAME = "secret.key";

    @Inject
    @ConfigProperty(name = "switchboard.secret-keys")
    Optional<String> configuredKeys;

    @Inject
    @ConfigProperty(name = "switchboard.secret-key")
    Optional<String> configuredKey;

    @Inject
    @ConfigProperty(name = "switchboard.secret.retired-versions")
    Optional<String> retiredVersions;

    @Inject
    DataDirectory dataDirectory;

    @Produces
    @Singleton
    SecretCipher secretCipher() {
        Map<Integer, byte[]> keys = new TreeMap<>();
        configuredKeys.filter(s -> !s.isBlank()).ifPresent(s -> keys.putAll(VersionedKeys.parse(s, "switchboard.secret-keys")));
        if (!keys.containsKey(1) && configuredKey.isPresent() && !configuredKey.get().isBlank()) {
            keys.put(1, Base64.getDecoder().decode(configuredKey.get().trim()));
        }
        Path file = dataDirectory.resolve(FILE_NAME);
        if (keys.isEmpty()) {
            LOG.warning(() -> "switchboard.secret-keys (env SWITCHBOARD_SECRET_KEYS) is not set: secrets are encrypted with"
                    + " the key in " + file + ". Set it in production, and back it up: without it stored secrets are lost.");
            keys.put(1, decode(OwnerOnlyFiles.readOrCreate(file, SecretKeySource::newEncodedKey)));
        } else if (!keys.containsKey(1) && Files.exists(file)) {
            keys.put(1, decode(OwnerOnlyFiles.readOrCreate(file, SecretKeySource::newEncodedKey)));
        }
        Set<Integer> retired = retiredVersions.filter(s -> !s.isBlank())
                .map(s -> VersionedKeys.versions(s, "switchboard.secret.retired-versions")).orElse(Set.of());
        SecretCipher cipher = new SecretCipher(keys, retired);
        LOG.info(() -> "Secrets are encrypted with key v" + cipher.currentVersion() + "; keys " + keys.keySet()
                + (retired.isEmpty() ? "" : ", retired " + retired));
        return cipher;
    }

    private static byte[] decode(byte[] stored) {
        return Base64.getDecoder().decode(new String(stored, StandardCharsets.US_ASCII).trim());
    }

    private static byte[] newEncodedKey() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return (Base64.getEncoder().encodeToString(key) + "\n").getBytes(StandardCharsets.US_ASCII);
    }
}
