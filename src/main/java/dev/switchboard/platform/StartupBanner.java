package dev.switchboard.platform;

import jakarta.annotation.PostConstruct;
import jakarta.ejb.DependsOn;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.logging.Logger;

/** Says once, after the database and the admin account are ready, where everything can be reached. */
@Singleton
@Startup
@DependsOn({"DatabaseMigrator", "AdminBootstrap"})
public class StartupBanner {

    private static final Logger LOG = Logger.getLogger(StartupBanner.class.getName());

    @Inject
    @ConfigProperty(name = "http.port", defaultValue = "8080")
    String port;

    @Inject
    @ConfigProperty(name = "switchboard.data-dir", defaultValue = "data")
    String dataDir;

    @PostConstruct
    void announce() {
        String base = "http://localhost:" + port;
        LOG.info(() -> String.join(System.lineSeparator(), "",
                "  Switchboard is up",
                "    console     " + base + "/",
                "    REST API    " + base + "/api  (token: POST /api/auth/token)",
                "    OpenAPI UI  " + base + "/openapi/ui",
                "    health      " + base + "/health   metrics " + base + "/metrics",
                "    data dir    " + dataDir));
    }
}
