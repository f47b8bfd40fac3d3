package dev.switchboard.backend.builtin;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Registers every built-in server once as a shared, active server of the default tenant, so a fresh start shows
 * tools in the console and through {@code /mcp} at once ({@code switchboard.demo-servers}, default true). Once per
 * tenant and name, ever: a demo server an admin disabled stays disabled, one an admin deleted stays deleted.
 */
@Singleton
@Startup
@DependsOn("DatabaseMigrator")
@TransactionAttribute(TransactionAttributeType.NOT_SUPPORTED)
public class DemoServers {

    private static final Logger LOG = Logger.getLogger(DemoServers.class.getName());

    @Inject
    BuiltinServers builtins;

    @Inject
    DemoServerSeeds seeds;

    @Inject
    @ConfigProperty(name = "switchboard.demo-servers", defaultValue = "true")
    boolean enabled;

    @Inject
    @ConfigProperty(name = "switchboard.default-tenant", defaultValue = "default")
    String tenant;

    @PostConstruct
    void register() {
        if (!enabled) {
            LOG.info("Built-in demo servers are switched off (switchboard.demo-servers=false)");
            return;
        }
        for (String name : builtins.names()) {
            try {
                seeds.registerOnce(tenant, name).ifPresent(id -> LOG.info(() -> "Registered the built-in demo server '"
                        + name + "' (id " + id + ") as a shared server of tenant '" + tenant + "'"));
            } catch (RuntimeException e) {
                // typically a second instance registering it at the same moment; the next start tries again
                LOG.log(Level.WARNING, "Could not register the built-in demo server '" + name + "'", e);
            }
        }
    }
}
