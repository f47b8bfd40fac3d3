package dev.switchboard.backend.registry;

import dev.switchboard.backend.builtin.BuiltinServers;
import dev.switchboard.security.CallerIdentity;
import dev.switchboard.backend.pool.BackendSpecSource;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.client.BackendSpec;
import dev.switchboard.platform.egress.AddressGuard;
import dev.switchboard.platform.egress.AddressNotAllowedException;
import dev.switchboard.platform.ApiException;
import dev.switchboard.policy.TenantPolicies;
import dev.switchboard.security.DefaultTenant;
import dev.switchboard.security.Role;
import dev.switchboard.security.CurrentUser;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;

/** The MCP server registry: who may see and change which server, and the rules a server must follow. */
@ApplicationScoped
public class McpServerRegistry {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    ServerSecrets secrets;

    @Inject
    McpServerRules rules;

    @Inject
    Event<McpServerChanged> changes;

    @Inject
    BuiltinServers builtins;

    @Inject
    TenantPolicies policies;

    @Inject
    DefaultTenant defaultTenant;

    /** The caller's own servers and the servers shared in the caller's tenant, by name. */
    public List<McpServer> visible(CurrentUser user) {
        return em.createQuery("select s from McpServer s where s.tenantId = :tenant and "
                        + "(s.userId = :subject or s.scope = :shared) order by s.name, s.id", McpServer.class)
                .setParameter("tenant", user.tenant())
                .setParameter("subject", user.subject())
                .setParameter("shared", McpServer.Scope.SHARED)
                .getResultList();
    }

    /** Ids of every server the caller can see (for tool-name resolution). */
    public List<Long> visibleIds(CurrentUser user) {
        return visible(user).stream().map(McpServer::getId).toList();
    }

    /** A server the caller can see; 404 otherwise, whether it exists or not. */
    public McpServer findVisible(CurrentUser user, long id) {
        return Optional.ofNullable(em.find(McpServer.class, id))
                .filter(s -> s.getTenantId().equals(user.tenant()))
                .filter(s -> s.getUserId().equals(user.subject()) || s.getScope() == McpServer.Scope.SHARED)
                .orElseThrow(() -> ApiException.notFound("MCP server " + id + " not found"));
    }

    @Transactional
    public McpServer create(CurrentUser user, McpServerInput input) {
        McpServer server = new McpServer();
        server.setUserId(user.subject());
        server.setTenantId(user.tenant());
        rules.applyNew(server, input, user);
        ensureReachable(server, user);
        ensureUniqueName(server);
        long now = System.currentTimeMillis();
        server.setCreatedAt(now);
        server.setUpdatedAt(now);
        em.persist(server);
        em.flush();
        secrets.seal(server);
        em.flush();
        changes.fire(new McpServerChanged(server.getId(), false));
        return server;
    }

    @Transactional
    public McpServer update(CurrentUser user, long id, McpServerInput input) {
        McpServer server = findEditable(user, id);
        rules.applyChange(server, input, user);
        if (input.baseUrl() != null) {
            ensureReachable(server, user);
        }
        ensureUniqueName(server);
        secrets.seal(server);
        server.raiseSettingsVersion();
        server.setUpdatedAt(System.currentTimeMillis());
        em.flush();
        changes.fire(new McpServerChanged(id, false));
        return server;
    }

    @Transactional
    public void delete(CurrentUser user, long id) {
        McpServer server = findEditable(user, id);
        em.remove(server);
        em.flush();
        changes.fire(new McpServerChanged(id, true));
    }

    /** Saves a change of tool lists (disable / auto-approve) made through the tools view. */
    @Transactional
    public McpServer save(McpServer server) {
        server.setUpdatedAt(System.currentTimeMillis());
        return em.merge(server);
    }

    /**
     * What the pool calls when it has to connect {@code server} for {@code user}: the caller is copied now (the pool
     * may connect on another thread, after the request), the secrets are decrypted then.
     */
    public BackendSpecSource specSource(McpServer server, CurrentUser user) {
        CallerIdentity caller = CallerIdentity.of(user);
        long settingsVersion = server.getSettingsVersion();
        return new BackendSpecSource() {
            @Override
            public BackendSpec get() throws McpException {
                return toSpec(server, caller);
            }

            @Override
            public long settingsVersion() {
                return settingsVersion;
            }
        };
    }

    /**
     * The plain connection details, secrets decrypted, for connecting right now on behalf of {@code caller} (only a
     * built-in server sees who that is; no other backend ever gets anything of the caller).
     */
    private BackendSpec toSpec(McpServer server, CallerIdentity caller) throws McpException {
        if (server.getType() == TransportKind.BUILTIN) {
            return BackendSpec.inProcess(builtins.find(server.getCommand()).orElseThrow(() -> new McpException(
                    McpException.Kind.CONNECT_REFUSED, "no built-in server named '" + server.getCommand() + "' in this deployment"))
                    .serve(caller));
        }
        return new BackendSpec(server.getType().transport(), server.getBaseUrl(),
                secrets.headers(server),
                server.getCommand(), McpServerJson.readList(server.getArgsJson()),
                secrets.env(server), null)
                .restrictedTo(addressGuard(server, caller.subject(), caller.roles().contains(Role.ADMIN.claim())));
    }

    /**
     * Where the server's connections may go: anywhere for a server the platform's administrators (admins of the
     * default tenant) registered, a shared one or an admin's own: they may reach internal services on purpose. A
     * server anyone else registered (users, and admins of other tenants, who do not set their tenant's policy either)
     * reaches public addresses and what the tenant's policy allows. A user's server is only ever connected for its
     * owner, so the caller's roles are the owner's as they are now (an owner who lost the admin role loses the freedom).
     */
    public AddressGuard addressGuard(McpServer server, String callerSubject, boolean callerIsAdmin) {
        boolean byPlatformAdmin = server.getTenantId().equals(defaultTenant.id()) && (server.getScope() == McpServer.Scope.SHARED
                || server.getUserId().equals(callerSubject) && callerIsAdmin);
        return byPlatformAdmin ? AddressGuard.UNRESTRICTED : policies.userServerGuard(server.getTenantId());
    }

    public List<String> disabledTools(McpServer server) {
        return McpServerJson.readList(server.getDisabledToolsJson());
    }

    public List<String> autoApproveTools(McpServer server) {
        return McpServerJson.readList(server.getAutoApproveToolsJson());
    }

    /** Owners edit their servers; admins edit the shared servers of their tenant. */
    public McpServer findEditable(CurrentUser user, long id) {
        McpServer server = findVisible(user, id);
        boolean owner = server.getUserId().equals(user.subject());
        boolean sharedByAdmin = server.getScope() == McpServer.Scope.SHARED && user.isAdmin();
        if (!owner && !sharedByAdmin) {
            throw ApiException.forbidden("not_owner", "Only an admin can change the shared server '" + server.getName() + "'");
        }
        return server;
    }

    /**
     * A user's server must not name an internal address the tenant does not allow: refused at once, so the user
     * learns it now rather than at the first connect. A name that does not resolve yet is accepted; every connection
     * is checked again anyway (the answer of DNS can change).
     */
    private void ensureReachable(McpServer server, CurrentUser user) {
        if (server.getBaseUrl() == null || server.getType().transport() == BackendSpec.TransportType.STDIO) {
            return;
        }
        AddressGuard guard = addressGuard(server, user.subject(), user.isAdmin());
        if (guard.isUnrestricted()) {
            return;
        }
        try {
            guard.resolve(URI.create(server.getBaseUrl()).getHost(), InetAddress::getAllByName);
        } catch (AddressNotAllowedException e) {
            throw ApiException.badRequest("address_not_allowed", e.getMessage());
        } catch (UnknownHostException e) {
            // not resolvable now: the connection will say so, or be checked when it resolves
        }
    }

    /** One name per owner (the database's unique key), and one name per tenant among shared servers. */
    private void ensureUniqueName(McpServer server) {
        boolean shared = server.getScope() == McpServer.Scope.SHARED;
        List<Long> clashes = em.createQuery("select s.id from McpServer s where s.tenantId = :tenant and s.name = :name "
                        + "and (s.userId = :subject or (s.scope = :shared and :isShared = true))", Long.class)
                .setParameter("tenant", server.getTenantId())
                .setParameter("name", server.getName())
                .setParameter("subject", server.getUserId())
                .setParameter("shared", McpServer.Scope.SHARED)
                .setParameter("isShared", shared)
                .getResultList();
        if (clashes.stream().anyMatch(other -> !other.equals(server.getId()))) {
            throw ApiException.conflict("duplicate_name", "An MCP server named '" + server.getName()
                    + "' already exists" + (shared ? " in this tenant" : ""));
        }
    }
}
