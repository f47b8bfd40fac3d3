package dev.switchboard.audit;

import dev.switchboard.security.DataDirectory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;

/**
 * Audit secrets and redaction rules from MicroProfile Config. Without {@code switchboard.audit.secrets} a v1 secret
 * is generated once into the data dir, which is fine for one instance; a cluster must configure the same secrets
 * everywhere.
 */
@ApplicationScoped
public class AuditConfig {

    private static final Logger LOG = Logger.getLogger(AuditConfig.class.getName());
    private static final String GENERATED_FILE = "audit-secret-v1.key";

    @Inject
    @ConfigProperty(name = "switchboard.audit.secrets")
    Optional<String> secrets;

    @Inject
    @ConfigProperty(name = "switchboard.audit.retired-versions")
    Optional<List<Integer>> retired;

    @Inject
    @ConfigProperty(name = "switchboard.audit.pii-fields")
    Optional<List<String>> piiFields;

    /** Off only to measure what auditing costs (bench/governance.mjs); announced as a WARNING at start. */
    @Inject
    @ConfigProperty(name = "switchboard.audit.enabled", defaultValue = "true")
    boolean enabled;

    @Inject
    DataDirectory dataDirectory;

    void started(@Observes @Initialized(ApplicationScoped.class) Object event) {
        if (!enabled) {
            LOG.warning("AUDIT IS OFF (SWITCHBOARD_AUDIT_ENABLED=false): gateway calls through /mcp are not recorded. "
                    + "Meant for measuring the audit's cost only; switch it on anywhere else.");
        }
    }

    /** Whether the gateway records its calls (the default); see {@code switchboard.audit.enabled}. */
    public boolean isEnabled() {
        return enabled;
    }

    /** {@code @Singleton}, not {@code @ApplicationScoped}: the value types are final, so they cannot be proxied. */
    @Produces
    @Singleton
    AuditSecrets secrets() {
        Map<Integer, byte[]> configured = secrets.filter(s -> !s.isBlank()).map(AuditSecrets::parse).orElseGet(() -> {
            LOG.warning("switchboard.audit.secrets is not set: audit input hashes use a secret generated into the data dir ("
                    + GENERATED_FILE + "); set it (v1=<base64>,...) when several instances share one database");
            byte[] encoded = dataDirectory.readOrCreateKeyFile(GENERATED_FILE, AuditConfig::newEncodedSecret);
            return Map.of(1, Base64.getDecoder().decode(new String(encoded).strip()));
        });
        AuditSecrets result = new AuditSecrets(configured, new HashSet<>(retired.orElse(List.of())));
        LOG.info(() -> "Audit input hashes use secret version v" + result.currentVersion());
        return result;
    }

    @Produces
    @Singleton
    Redactor redactor() {
        return new Redactor(Set.copyOf(piiFields.orElse(List.of())));
    }

    private static byte[] newEncodedSecret() {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        return Base64.getEncoder().encode(secret);
    }
}
