package dev.switchboard.sql.grants;

import dev.switchboard.security.LocalUser;
import dev.switchboard.security.LocalUsers;
import dev.switchboard.sql.auth.StoredGrants;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import jakarta.transaction.Transactional;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The grant tables ({@code query_user_grant}, {@code query_role_grant}, {@code query_role_override}). The first change
 * to a role's grants in a tenant writes the role's configured default there as grants (marked as coming from
 * {@code query.role.<role>}) and the override, then the change: what the role held a moment before is what an admin
 * narrows or widens.
 */
@ApplicationScoped
@Transactional
public class GrantStore {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    LocalUsers users;

    /** A grant as stored, and whether this call made it. */
    public record Granted(Grant grant, boolean created) {
    }

    /** What bears on {@code subject} in {@code tenant}: its own grants when it is a local user there, overridden roles'. */
    public StoredGrants load(String tenant, String subject) {
        Set<String> own = subject == null ? Set.of() : users.find(subject).filter(u -> u.tenantId().equals(tenant))
                .map(u -> ofUser(u).stream().map(UserGrant::permission).collect(Collectors.toSet())).orElse(Set.of());
        return new StoredGrants(own, roles(tenant));
    }

    /** The grants of each role an admin has set in the tenant; a role not in the map holds its configured default. */
    public Map<String, Set<String>> roles(String tenant) {
        Map<String, Set<String>> roles = new TreeMap<>();
        em.createNamedQuery(RoleOverride.OF_TENANT, RoleOverride.class).setParameter("tenant", tenant).getResultList()
                .forEach(o -> roles.put(o.role(), new TreeSet<>()));
        for (RoleGrant grant : roleGrants(tenant)) {
            roles.computeIfAbsent(grant.role(), r -> new TreeSet<>()).add(grant.permission());
        }
        return roles;
    }

    public List<RoleGrant> roleGrants(String tenant) {
        return em.createNamedQuery(RoleGrant.OF_TENANT, RoleGrant.class).setParameter("tenant", tenant).getResultList();
    }

    public List<UserGrant> ofUser(LocalUser user) {
        return em.createNamedQuery(UserGrant.OF_USER, UserGrant.class).setParameter("userId", user.id()).getResultList();
    }

    /** A page of the tenant's grants to users (of one user when {@code username} is not null), by user and permission. */
    public List<UserGrant> userGrants(String tenant, String username, int offset, int limit) {
        if (limit <= 0) {
            return List.of();
        }
        return userQuery("SELECT g", UserGrant.class, tenant, username, " ORDER BY g.username, g.permission")
                .setFirstResult(offset).setMaxResults(limit).getResultList();
    }

    public long countUserGrants(String tenant, String username) {
        return userQuery("SELECT COUNT(g)", Long.class, tenant, username, "").getSingleResult();
    }

    private <T> TypedQuery<T> userQuery(String select, Class<T> type, String tenant, String username, String order) {
        String jpql = select + " FROM UserGrant g WHERE g.tenantId = :tenant" + (username == null ? "" : " AND g.username = :username");
        TypedQuery<T> query = em.createQuery(jpql + order, type).setParameter("tenant", tenant);
        return username == null ? query : query.setParameter("username", username);
    }

    public Granted grant(LocalUser user, String permission, String by) {
        Optional<UserGrant> existing = userGrant(user, permission);
        if (existing.isPresent()) {
            return new Granted(existing.get(), false);
        }
        UserGrant grant = new UserGrant(user.id(), user.username(), user.tenantId(), permission, by, System.currentTimeMillis());
        em.persist(grant);
        return new Granted(grant, true);
    }

    /** @return whether the user held the grant */
    public boolean revoke(LocalUser user, String permission) {
        Optional<UserGrant> existing = userGrant(user, permission);
        existing.ifPresent(em::remove);
        return existing.isPresent();
    }

    /** @param defaults the role's configured default, written first when no admin has set the role's grants here yet */
    public Granted grant(String tenant, String role, String permission, String by, List<String> defaults) {
        override(tenant, role, by, defaults);
        Optional<RoleGrant> existing = roleGrant(tenant, role, permission);
        if (existing.isPresent()) {
            return new Granted(existing.get(), false);
        }
        RoleGrant grant = new RoleGrant(tenant, role, permission, by, System.currentTimeMillis());
        em.persist(grant);
        return new Granted(grant, true);
    }

    /** @return whether the role held the grant (by default or grant); nothing is written when it did not */
    public boolean revoke(String tenant, String role, String permission, String by, List<String> defaults) {
        Set<String> set = roles(tenant).get(role);
        if (!(set == null ? defaults.contains(permission) : set.contains(permission))) {
            return false;
        }
        override(tenant, role, by, defaults);
        roleGrant(tenant, role, permission).ifPresent(em::remove);
        return true;
    }

    private void override(String tenant, String role, String by, List<String> defaults) {
        if (roles(tenant).containsKey(role)) {
            return;
        }
        long now = System.currentTimeMillis();
        em.persist(new RoleOverride(tenant, role, by, now));
        for (String permission : new TreeSet<>(defaults)) {
            em.persist(new RoleGrant(tenant, role, permission, "query.role." + role, now));
        }
        em.flush();
    }

    private Optional<UserGrant> userGrant(LocalUser user, String permission) {
        return em.createNamedQuery(UserGrant.ONE, UserGrant.class).setParameter("userId", user.id())
                .setParameter("permission", permission).getResultStream().findFirst();
    }

    private Optional<RoleGrant> roleGrant(String tenant, String role, String permission) {
        return em.createNamedQuery(RoleGrant.ONE, RoleGrant.class).setParameter("tenant", tenant).setParameter("role", role)
                .setParameter("permission", permission).getResultStream().findFirst();
    }
}
