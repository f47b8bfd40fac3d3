package dev.switchboard.chat;

import dev.switchboard.platform.ApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonArrayBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;

import java.util.List;
import java.util.Optional;

import static dev.switchboard.mcp.JsonRpcMessage.JSON;

/** Conversations and messages; each write is its own short transaction so a long run never holds one open. */
@ApplicationScoped
public class ConversationStore {

    private static final int TITLE_LENGTH = 80;

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    /**
     * Stores the start of a run in one transaction: the conversation (found or new), the caller's new messages and
     * the run's empty assistant message, whose id the run fills in. One commit instead of one per row: this is on
     * the way to a streamed answer's first content.
     */
    @Transactional
    public StoredRun begin(ChatCaller caller, Long assistantId, String sessionId, String firstText, List<NewMessage> newMessages) {
        Conversation conversation = open(caller, assistantId, sessionId, firstText);
        for (NewMessage message : newMessages) {
            add(conversation.getId(), message.role(), message.content(), message.toolCallId());
        }
        return new StoredRun(conversation.getId(), add(conversation.getId(), "assistant", "", null));
    }

    /** A message of the caller's request, as stored. */
    public record NewMessage(String role, String content, String toolCallId) {
    }

    /** Where a run is stored: its conversation and the assistant message it fills in. */
    public record StoredRun(long conversationId, long messageId) {
    }

    /** The caller's conversation for {@code sessionId}, or a new one (always new without a session id). */
    private Conversation open(ChatCaller caller, Long assistantId, String sessionId, String firstText) {
        if (sessionId != null) {
            Optional<Conversation> existing = em.createQuery("select c from Conversation c where c.tenantId = :tenant "
                            + "and c.userId = :subject and c.sessionId = :session order by c.id desc", Conversation.class)
                    .setParameter("tenant", caller.tenant()).setParameter("subject", caller.subject())
                    .setParameter("session", sessionId).setMaxResults(1).getResultStream().findFirst();
            if (existing.isPresent()) {
                return existing.get();
            }
        }
        Conversation conversation = new Conversation();
        conversation.setUserId(caller.subject());
        conversation.setTenantId(caller.tenant());
        conversation.setAssistantId(assistantId);
        conversation.setSessionId(sessionId);
        String title = firstText == null ? "" : firstText.strip();
        conversation.setTitle(title.length() <= TITLE_LENGTH ? title : title.substring(0, TITLE_LENGTH));
        long now = System.currentTimeMillis();
        conversation.setCreatedAt(now);
        conversation.setUpdatedAt(now);
        em.persist(conversation);
        em.flush();
        return conversation;
    }

    private long add(long conversationId, String role, String content, String toolCallId) {
        ChatMessage message = new ChatMessage();
        message.setConversationId(conversationId);
        message.setRole(role);
        message.setContent(content);
        message.setToolCallId(toolCallId);
        long now = System.currentTimeMillis();
        message.setCreatedAt(now);
        message.setUpdatedAt(now);
        em.persist(message);
        Conversation conversation = em.find(Conversation.class, conversationId);
        conversation.setUpdatedAt(now);
        em.flush();
        return message.getId();
    }

    /** Seed 004: the one assistant message of a run, its text and tool calls updated in place. */
    @Transactional
    public void updateAssistant(long messageId, String content, List<ToolCallRecord> records, String finishReason) {
        ChatMessage message = em.find(ChatMessage.class, messageId);
        message.setContent(content);
        JsonArrayBuilder calls = JSON.createArrayBuilder();
        records.forEach(r -> calls.add(r.toJson()));
        message.setToolCallsJson(calls.build().toString());
        message.setFinishReason(finishReason);
        message.setUpdatedAt(System.currentTimeMillis());
    }

    /** A run that ended without an answer keeps what it had, marked {@code error}. */
    @Transactional
    public void markFailed(long messageId) {
        ChatMessage message = em.find(ChatMessage.class, messageId);
        message.setFinishReason("error");
        message.setUpdatedAt(System.currentTimeMillis());
    }

    public List<Conversation> list(ChatCaller caller) {
        return em.createQuery("select c from Conversation c where c.tenantId = :tenant and c.userId = :subject "
                        + "order by c.updatedAt desc, c.id desc", Conversation.class)
                .setParameter("tenant", caller.tenant()).setParameter("subject", caller.subject())
                .getResultList();
    }

    /** The caller's conversation; 404 for anyone else's, whether it exists or not. */
    public Conversation find(ChatCaller caller, long id) {
        return Optional.ofNullable(em.find(Conversation.class, id))
                .filter(c -> c.getTenantId().equals(caller.tenant()) && c.getUserId().equals(caller.subject()))
                .orElseThrow(() -> ApiException.notFound("Conversation " + id + " not found"));
    }

    public List<ChatMessage> messages(long conversationId) {
        return em.createQuery("select m from ChatMessage m where m.conversationId = :conversation order by m.id", ChatMessage.class)
                .setParameter("conversation", conversationId).getResultList();
    }
}
