package dev.switchboard.chat;

import dev.switchboard.persistence.DatabaseKinds;
import dev.switchboard.persistence.TestDatabase;
import dev.switchboard.security.CallerIdentity;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A run's JDBC writes, read back through the JPA entities the rest of Switchboard reads them with, on each database. */
class RunRowsTest {

    private static final CallerIdentity ALICE = new CallerIdentity("alice", "default", Set.of());

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void aTurnIsStoredInOrderAndItsAssistantMessageFilledIn(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind); Connection connection = db.jdbc()) {
            connection.setAutoCommit(false);
            String longQuestion = "总结".repeat(50);
            ConversationStore.StoredRun run = RunRows.begin(connection, ALICE, 7L, null, "  " + longQuestion + "  ", List.of(
                    new ConversationStore.NewMessage("system", "be brief", null),
                    new ConversationStore.NewMessage("user", longQuestion, null)), 1000L);
            connection.commit();

            Conversation conversation = db.inTransaction(em -> em.find(Conversation.class, run.conversationId()));
            assertEquals("alice", conversation.getUserId());
            assertEquals("default", conversation.getTenantId());
            assertEquals(7L, conversation.getAssistantId());
            assertNull(conversation.getSessionId());
            assertEquals(longQuestion.substring(0, RunRows.TITLE_LENGTH), conversation.getTitle(), "stripped, cut to the title length");
            assertEquals(1000L, conversation.getUpdatedAt());
            List<ChatMessage> messages = messages(db, run.conversationId());
            assertEquals(List.of("system", "user", "assistant"), messages.stream().map(ChatMessage::getRole).toList(), "in the request's order");
            assertEquals(run.messageId(), messages.get(2).getId());
            assertEquals("", messages.get(2).getContent());
            assertNull(messages.get(2).getFinishReason());

            RunRows.updateAssistant(connection, run.messageId(), "你好", "[]", "stop", 2000L);
            connection.commit();
            ChatMessage answered = messages(db, run.conversationId()).get(2);
            assertEquals("你好", answered.getContent());
            assertEquals("[]", answered.getToolCallsJson());
            assertEquals("stop", answered.getFinishReason());
            assertEquals(2000L, answered.getUpdatedAt());

            RunRows.markFailed(connection, run.messageId(), 3000L);
            connection.commit();
            ChatMessage failed = messages(db, run.conversationId()).get(2);
            assertEquals("error", failed.getFinishReason());
            assertEquals("你好", failed.getContent(), "what the run had is kept");
        }
    }

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void aSessionContinuesTheCallersNewestConversationOfIt(TestDatabase.Kind kind) throws Exception {
        try (TestDatabase db = DatabaseKinds.open(kind); Connection connection = db.jdbc()) {
            connection.setAutoCommit(false);
            ConversationStore.StoredRun first = RunRows.begin(connection, ALICE, null, "s-1", "first",
                    List.of(new ConversationStore.NewMessage("user", "first", null)), 1000L);
            ConversationStore.StoredRun someoneElses = RunRows.begin(connection, new CallerIdentity("bob", "default", Set.of()), null, "s-1", "bob's",
                    List.of(new ConversationStore.NewMessage("user", "bob's", null)), 1500L);
            ConversationStore.StoredRun second = RunRows.begin(connection, ALICE, null, "s-1", "second",
                    List.of(new ConversationStore.NewMessage("tool", "42", "call_1")), 2000L);
            connection.commit();

            assertEquals(first.conversationId(), second.conversationId());
            assertTrue(someoneElses.conversationId() != first.conversationId(), "another user's session is not continued");
            Conversation conversation = db.inTransaction(em -> em.find(Conversation.class, first.conversationId()));
            assertEquals("first", conversation.getTitle(), "the title stays the first question");
            assertEquals(2000L, conversation.getUpdatedAt());
            List<ChatMessage> messages = messages(db, first.conversationId());
            assertEquals(List.of("user", "assistant", "tool", "assistant"), messages.stream().map(ChatMessage::getRole).toList());
            assertEquals("call_1", messages.get(2).getToolCallId());
            assertEquals(second.messageId(), messages.get(3).getId());
        }
    }

    private static List<ChatMessage> messages(TestDatabase db, long conversationId) {
        return db.inTransaction(em -> em.createQuery("select m from ChatMessage m where m.conversationId = :c order by m.id",
                ChatMessage.class).setParameter("c", conversationId).getResultList());
    }
}
