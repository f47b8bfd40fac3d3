package dev.switchboard.chat;

import dev.switchboard.platform.ApiException;
import dev.switchboard.security.CallerIdentity;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonArrayBuilder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** Conversations and messages; each write is its own short transaction so a long run never holds one open. */
@ApplicationScoped
public class ConversationStore {

    @PersistenceContext(unitName = "switchboard")
    EntityManager em;

    /**
     * A run's own writes ({@link #begin}, {@link #updateAssistant}, {@link #markFailed}) go through connections of
     * their own, outside JTA, as plain statements ({@link RunRows}): every streamed completion makes two of them.
     */
    @Resource(lookup = "jdbc/switchboard-chat")
    DataSource runs;

    /**
     * Stores the start of a run in one transaction: the conversation (found or new), the caller's new messages and
     * the run's empty assistant message, whose id the run fills in.
     */
    public StoredRun begin(CallerIdentity caller, Long assistantId, String sessionId, String firstText, List<NewMessage> newMessages) {
        return inTransaction("store the chat turn", connection ->
                RunRows.begin(connection, caller, assistantId, sessionId, firstText, newMessages, System.currentTimeMillis()));
    }

    /** A message of the caller's request, as stored. */
    public record NewMessage(String role, String content, String toolCallId) {
    }

    /** Where a run is stored: its conversation and the assistant message it fills in. */
    public record StoredRun(long conversationId, long messageId) {
    }

    /** The MCP client system: the one assistant message of a run, its text and tool calls updated in place. */
    public void updateAssistant(long messageId, String content, List<ToolCallRecord> records, String finishReason) {
        JsonArrayBuilder calls = JSON.createArrayBuilder();
        records.forEach(r -> calls.add(r.toJson()));
        String toolCalls = calls.build().toString();
        inTransaction("save the assistant message", connection -> {
            RunRows.updateAssistant(connection, messageId, content, toolCalls, finishReason, System.currentTimeMillis());
            return null;
        });
    }

    /** A run that ended without an answer keeps what it had, marked {@code error}. */
    public void markFailed(long messageId) {
        inTransaction("mark the assistant message failed", connection -> {
            RunRows.markFailed(connection, messageId, System.currentTimeMillis());
            return null;
        });
    }

    private interface RowWork<T> {
        T run(Connection connection) throws SQLException;
    }

    private <T> T inTransaction(String what, RowWork<T> work) {
        try (Connection connection = runs.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not " + what + ": " + e.getMessage(), e);
        }
    }

    public List<Conversation> list(CallerIdentity caller) {
        return em.createQuery("select c from Conversation c where c.tenantId = :tenant and c.userId = :subject "
                        + "order by c.updatedAt desc, c.id desc", Conversation.class)
                .setParameter("tenant", caller.tenant()).setParameter("subject", caller.subject())
                .getResultList();
    }

    /** The caller's conversation; 404 for anyone else's, whether it exists or not. */
    public Conversation find(CallerIdentity caller, long id) {
        return Optional.ofNullable(em.find(Conversation.class, id))
                .filter(c -> c.getTenantId().equals(caller.tenant()) && c.getUserId().equals(caller.subject()))
                .orElseThrow(() -> ApiException.notFound("Conversation " + id + " not found"));
    }

    public List<ChatMessage> messages(long conversationId) {
        return em.createQuery("select m from ChatMessage m where m.conversationId = :conversation order by m.id", ChatMessage.class)
                .setParameter("conversation", conversationId).getResultList();
    }
}
