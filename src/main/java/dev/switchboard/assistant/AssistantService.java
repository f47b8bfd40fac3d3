package dev.switchboard.assistant;

import dev.switchboard.backend.registry.McpServerRegistry;
import dev.switchboard.platform.ApiException;
import dev.switchboard.security.CurrentUser;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Assistants belong to their creator; their server list may only name servers the creator can see. */
@ApplicationScoped
public class AssistantService {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    @Inject
    McpServerRegistry servers;

    public List<Assistant> list(CurrentUser user) {
        return em.createQuery("select a from Assistant a where a.tenantId = :tenant and a.userId = :subject "
                        + "order by a.name, a.id", Assistant.class)
                .setParameter("tenant", user.tenant())
                .setParameter("subject", user.subject())
                .getResultList();
    }

    public Assistant find(CurrentUser user, long id) {
        return Optional.ofNullable(em.find(Assistant.class, id))
                .filter(a -> a.getTenantId().equals(user.tenant()) && a.getUserId().equals(user.subject()))
                .orElseThrow(() -> ApiException.notFound("Assistant " + id + " not found"));
    }

    @Transactional
    public Assistant create(CurrentUser user, AssistantInput input, List<Long> serverIds) {
        if (input.name() == null || input.name().isBlank()) {
            throw ApiException.badRequest("missing_field", "'name' is required");
        }
        Assistant assistant = new Assistant();
        assistant.setUserId(user.subject());
        assistant.setTenantId(user.tenant());
        apply(assistant, input);
        long now = System.currentTimeMillis();
        assistant.setCreatedAt(now);
        assistant.setUpdatedAt(now);
        if (serverIds != null) {
            assistant.setMcpServerIds(checkVisible(user, serverIds));
        }
        em.persist(assistant);
        em.flush();
        return assistant;
    }

    @Transactional
    public Assistant update(CurrentUser user, long id, AssistantInput input, List<Long> serverIds) {
        Assistant assistant = find(user, id);
        if (input.name() != null && input.name().isBlank()) {
            throw ApiException.badRequest("invalid_name", "'name' must not be blank");
        }
        apply(assistant, input);
        if (serverIds != null) {
            assistant.setMcpServerIds(checkVisible(user, serverIds));
        }
        assistant.setUpdatedAt(System.currentTimeMillis());
        return assistant;
    }

    @Transactional
    public void delete(CurrentUser user, long id) {
        em.remove(find(user, id));
    }

    /** Replaces the assistant's servers (the MCP client system's {@code assistant_mcp_servers}). */
    @Transactional
    public Assistant setServers(CurrentUser user, long id, List<Long> serverIds) {
        Assistant assistant = find(user, id);
        assistant.setMcpServerIds(checkVisible(user, serverIds));
        assistant.setUpdatedAt(System.currentTimeMillis());
        return assistant;
    }

    /** The assistant's server ids that still exist and are still visible (a server may have been deleted). */
    public List<Long> servers(CurrentUser user, long id) {
        Set<Long> visible = new LinkedHashSet<>(servers.visibleIds(user));
        return find(user, id).getMcpServerIds().stream().filter(visible::contains).toList();
    }

    private Set<Long> checkVisible(CurrentUser user, List<Long> serverIds) {
        Set<Long> visible = new LinkedHashSet<>(servers.visibleIds(user));
        for (Long serverId : serverIds) {
            if (!visible.contains(serverId)) {
                throw ApiException.badRequest("unknown_server", "MCP server " + serverId + " not found");
            }
        }
        return new LinkedHashSet<>(serverIds);
    }

    private static void apply(Assistant assistant, AssistantInput input) {
        if (input.name() != null) {
            assistant.setName(input.name().trim());
        }
        if (input.description() != null) {
            assistant.setDescription(input.description());
        }
        if (input.systemPrompt() != null) {
            assistant.setSystemPrompt(input.systemPrompt());
        }
        if (input.model() != null) {
            assistant.setModel(input.model());
        }
        if (input.knowledgeBaseEnabled() != null) {
            assistant.setKnowledgeBaseEnabled(input.knowledgeBaseEnabled());
        }
    }
}
