package dev.switchboard.backend.registry;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.Timeout;
import jakarta.ejb.TimerConfig;
import jakarta.ejb.TimerService;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Brings every stored server secret under the newest key and binds it to its place, in the background: shortly after
 * start (so a key added to {@code switchboard.secret-keys} takes over the old values without anyone editing them)
 * and again every {@code switchboard.secret.reencrypt-interval} (values another instance of a cluster wrote with its
 * older configuration). A non-persistent timer: a missed pass needs no catching up, the next does the same work.
 */
@Singleton
@Startup
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class SecretRotationTimer {

    private static final Logger LOG = Logger.getLogger(SecretRotationTimer.class.getName());

    @Resource
    TimerService timers;

    @Inject
    SecretRotation rotation;

    @Inject
    @ConfigProperty(name = "switchboard.secret.reencrypt-interval", defaultValue = "PT1H")
    Duration interval;

    @Inject
    @ConfigProperty(name = "switchboard.secret.reencrypt-delay", defaultValue = "PT10S")
    Duration firstDelay;

    @PostConstruct
    void schedule() {
        timers.createIntervalTimer(firstDelay.toMillis(), interval.toMillis(), new TimerConfig("secret-reencryption", false));
    }

    @Timeout
    void pass() {
        int rewritten = 0;
        List<Long> unreadable = new ArrayList<>();
        try {
            long after = 0;
            do {
                SecretRotation.Page page = rotation.next(after);
                rewritten += page.rewritten();
                unreadable.addAll(page.unreadable());
                after = page.lastId();
            } while (after > 0);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Re-encrypting stored server secrets stopped; the next pass tries again", e);
        }
        if (rewritten > 0) {
            int count = rewritten;
            LOG.info(() -> "Re-encrypted the secrets of " + count + " MCP server(s) under the newest key");
        }
        if (!unreadable.isEmpty()) {
            LOG.warning("The secrets of MCP server(s) " + unreadable + " cannot be decrypted (a retired or unconfigured key,"
                    + " or values moved from another row): re-enter them, or configure the key they were encrypted with");
        }
    }
}
