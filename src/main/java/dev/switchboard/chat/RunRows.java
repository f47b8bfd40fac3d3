package dev.switchboard.chat;

import dev.switchboard.security.CallerIdentity;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;

/**
 * The rows a chat run writes while it streams (its turn at the start, its assistant message as it goes and at the
 * end), as plain JDBC statements on a connection the caller commits. Every streamed completion writes twice; through
 * JPA and JTA these two transactions were a quarter of the Switchboard JVM's CPU per stream (bench/README.md, "Chat
 * first byte round 3"). The rows are the {@link Conversation} and {@link ChatMessage} entities' tables, which JPA reads.
 */
final class RunRows {

    static final int TITLE_LENGTH = 80;

    private RunRows() {
    }

    /**
     * The conversation (the caller's newest one of {@code sessionId}, or a new one), the caller's new messages and the
     * run's empty assistant message; the messages' ids follow their order.
     */
    static ConversationStore.StoredRun begin(Connection connection, CallerIdentity caller, Long assistantId, String sessionId,
                                             String firstText, List<ConversationStore.NewMessage> newMessages, long now)
            throws SQLException {
        Long existing = sessionId == null ? null : conversationOf(connection, caller, sessionId);
        long conversationId;
        if (existing == null) {
            conversationId = insertConversation(connection, caller, assistantId, sessionId, firstText, now);
        } else {
            conversationId = existing;
            try (PreparedStatement touch = connection.prepareStatement("UPDATE conversations SET updated_at = ? WHERE id = ?")) {
                touch.setLong(1, now);
                touch.setLong(2, conversationId);
                touch.executeUpdate();
            }
        }
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO chat_messages "
                + "(conversation_id, role, content, tool_call_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                Statement.RETURN_GENERATED_KEYS)) {
            for (ConversationStore.NewMessage message : newMessages) {
                insertMessage(insert, conversationId, message.role(), message.content(), message.toolCallId(), now);
            }
            return new ConversationStore.StoredRun(conversationId, insertMessage(insert, conversationId, "assistant", "", null, now));
        }
    }

    /** The assistant message's text, tool calls (JSON) and finish reason ({@code null} while the run goes on). */
    static void updateAssistant(Connection connection, long messageId, String content, String toolCallsJson, String finishReason,
                                long now) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE chat_messages SET content = ?, tool_calls = ?, finish_reason = ?, updated_at = ? WHERE id = ?")) {
            update.setString(1, content);
            update.setString(2, toolCallsJson);
            update.setString(3, finishReason);
            update.setLong(4, now);
            update.setLong(5, messageId);
            update.executeUpdate();
        }
    }

    /** A run that ended without an answer keeps what it had, marked {@code error}. */
    static void markFailed(Connection connection, long messageId, long now) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE chat_messages SET finish_reason = 'error', updated_at = ? WHERE id = ?")) {
            update.setLong(1, now);
            update.setLong(2, messageId);
            update.executeUpdate();
        }
    }

    private static Long conversationOf(Connection connection, CallerIdentity caller, String sessionId) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement("SELECT id FROM conversations WHERE tenant_id = ? "
                + "AND user_id = ? AND session_id = ? ORDER BY id DESC LIMIT 1")) {
            query.setString(1, caller.tenant());
            query.setString(2, caller.subject());
            query.setString(3, sessionId);
            try (ResultSet rows = query.executeQuery()) {
                return rows.next() ? rows.getLong(1) : null;
            }
        }
    }

    private static long insertConversation(Connection connection, CallerIdentity caller, Long assistantId, String sessionId,
                                           String firstText, long now) throws SQLException {
        String title = firstText == null ? "" : firstText.strip();
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO conversations "
                + "(user_id, tenant_id, assistant_id, session_id, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                Statement.RETURN_GENERATED_KEYS)) {
            insert.setString(1, caller.subject());
            insert.setString(2, caller.tenant());
            if (assistantId == null) {
                insert.setNull(3, Types.BIGINT);
            } else {
                insert.setLong(3, assistantId);
            }
            insert.setString(4, sessionId);
            insert.setString(5, title.length() <= TITLE_LENGTH ? title : title.substring(0, TITLE_LENGTH));
            insert.setLong(6, now);
            insert.setLong(7, now);
            insert.executeUpdate();
            return generatedId(insert);
        }
    }

    private static long insertMessage(PreparedStatement insert, long conversationId, String role, String content, String toolCallId,
                                      long now) throws SQLException {
        insert.setLong(1, conversationId);
        insert.setString(2, role);
        insert.setString(3, content);
        insert.setString(4, toolCallId);
        insert.setLong(5, now);
        insert.setLong(6, now);
        insert.executeUpdate();
        return generatedId(insert);
    }

    private static long generatedId(PreparedStatement insert) throws SQLException {
        try (ResultSet keys = insert.getGeneratedKeys()) {
            if (!keys.next()) {
                throw new SQLException("the database returned no generated id");
            }
            return keys.getLong(1);
        }
    }
}
