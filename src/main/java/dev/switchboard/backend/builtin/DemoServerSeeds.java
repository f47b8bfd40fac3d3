package dev.switchboard.backend.builtin;

import dev.switchboard.backend.registry.McpServer;
import dev.switchboard.backend.registry.McpServerChanged;
import dev.switchboard.backend.registry.TransportKind;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.enterprise.event.Event;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.util.Optional;
import java.util.logging.Logger;

/** Registers one demo server with its seed row in one transaction (table {@code demo_server_seeds}, migration V10). */
@ApplicationScoped
public class DemoServerSeeds {

    private static final Logger LOG = Logger.getLogger(DemoServerSeeds.class.getName());
    /** Owner of demo servers: not a possible local username (no ':'), so nobody but an admin can edit them. */
    static final String OWNER = "switchboard:demo";
    /** Room for the NL->SQL service's longest query (300 s) before the gateway gives up on a call. */
    private static final int TIMEOUT_SECONDS = 310;

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    Event<McpServerChanged> changes;

    @Inject
    @ConfigProperty(name = "switchboard.mcp.max-timeout", defaultValue = "600")
    int maxTimeout;

    /** The new server's id, or empty when this demo server was registered before (and maybe deleted since). */
    @Transactional
    public Optional<Long> registerOnce(String tenant, String name) {
        Number seeded = (Number) em.createNativeQuery("SELECT COUNT(*) FROM demo_server_seeds WHERE tenant_id = ? AND name = ?")
                .setParameter(1, tenant).setParameter(2, name).getSingleResult();
        if (seeded.longValue() > 0) {
            return Optional.empty();
        }
        boolean nameTaken = !em.createQuery("select s.id from McpServer s where s.tenantId = :tenant and s.name = :name "
                        + "and s.scope = :shared", Long.class)
                .setParameter("tenant", tenant).setParameter("name", name).setParameter("shared", McpServer.Scope.SHARED)
                .getResultList().isEmpty();
        if (nameTaken) {
            LOG.info(() -> "Not registering the built-in demo server '" + name + "': tenant '" + tenant
                    + "' already shares a server of that name");
            return Optional.empty();
        }
        long now = System.currentTimeMillis();
        McpServer server = new McpServer();
        server.setUserId(OWNER);
        server.setTenantId(tenant);
        server.setScope(McpServer.Scope.SHARED);
        server.setName(name);
        server.setType(TransportKind.BUILTIN);
        server.setCommand(name);
        server.setActive(true);
        server.setTimeoutSeconds(Math.min(TIMEOUT_SECONDS, maxTimeout));
        server.setCreatedAt(now);
        server.setUpdatedAt(now);
        em.persist(server);
        em.flush();
        em.createNativeQuery("INSERT INTO demo_server_seeds (tenant_id, name, server_id, seeded_at) VALUES (?, ?, ?, ?)")
                .setParameter(1, tenant).setParameter(2, name).setParameter(3, server.getId()).setParameter(4, now)
                .executeUpdate();
        changes.fire(new McpServerChanged(server.getId(), false));
        return Optional.of(server.getId());
    }
}
