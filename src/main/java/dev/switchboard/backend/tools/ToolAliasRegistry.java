package dev.switchboard.backend.tools;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional;
import jakarta.transaction.TransactionalException;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Issues LLM-facing display names for tools and resolves them back. Names are unique among the servers
 * one caller can see; a clash (two servers whose names sanitise alike) gets a hashed name instead.
 */
@ApplicationScoped
public class ToolAliasRegistry {

    /** A tool of a server, by the tool's original name. */
    public record ToolRef(long serverId, String toolName) {
    }

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    ToolAliasRegistry self;

    /**
     * Display names for the given tools of one server, in the order given.
     * Two requests that meet a server's tools for the first time at once may both insert the same name; the loser's
     * transaction fails on the unique key, and issuing again in a new transaction finds the winner's rows.
     *
     * @param visibleServerIds every server the caller can see (names must be unique among them)
     */
    public Map<String, String> displayNames(long serverId, String serverName, List<String> toolNames,
                                            Collection<Long> visibleServerIds) {
        try {
            return self.issueAll(serverId, serverName, toolNames, visibleServerIds);
        } catch (PersistenceException | TransactionalException e) {
            return self.issueAll(serverId, serverName, toolNames, visibleServerIds);
        }
    }

    /** One transaction of its own per attempt; public and called through {@link #self}, or no interceptor applies. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public Map<String, String> issueAll(long serverId, String serverName, List<String> toolNames,
                                 Collection<Long> visibleServerIds) {
        Map<String, String> names = new LinkedHashMap<>();
        for (String tool : toolNames) {
            names.put(tool, issue(serverId, serverName, tool, visibleServerIds));
        }
        em.flush();
        return names;
    }

    /** The tool a display name stands for, among the servers the caller can see. */
    public Optional<ToolRef> resolve(String displayName, Collection<Long> visibleServerIds) {
        if (visibleServerIds.isEmpty()) {
            return Optional.empty();
        }
        return em.createQuery("select a from ToolAlias a where a.displayName = :name and a.serverId in :servers "
                        + "order by a.createdAt desc", ToolAlias.class)
                .setParameter("name", displayName)
                .setParameter("servers", visibleServerIds)
                .setMaxResults(1)
                .getResultStream()
                .findFirst()
                .map(a -> new ToolRef(a.getServerId(), a.getToolName()));
    }

    private String issue(long serverId, String serverName, String tool, Collection<Long> visibleServerIds) {
        String candidate = ToolNames.displayName(serverName, tool);
        Optional<ToolRef> holder = resolve(candidate, visibleServerIds);
        if (holder.isPresent() && !holder.get().equals(new ToolRef(serverId, tool))) {
            candidate = ToolNames.disambiguated(serverName, tool, serverId + "\0" + tool);
        }
        if (!exists(serverId, tool, candidate)) {
            em.persist(new ToolAlias(serverId, tool, candidate, System.currentTimeMillis()));
        }
        return candidate;
    }

    private boolean exists(long serverId, String tool, String displayName) {
        return !em.createQuery("select a.id from ToolAlias a where a.serverId = :server and a.toolName = :tool "
                        + "and a.displayName = :name", Long.class)
                .setParameter("server", serverId)
                .setParameter("tool", tool)
                .setParameter("name", displayName)
                .getResultList().isEmpty();
    }
}
