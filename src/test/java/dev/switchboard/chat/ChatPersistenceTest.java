package dev.switchboard.chat;

import dev.switchboard.persistence.DatabaseKinds;
import dev.switchboard.persistence.TestDatabase;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Conversations and messages on each database: Chinese text and tool-call JSON come back as written; deletes cascade. */
class ChatPersistenceTest {

    @ParameterizedTest
    @MethodSource("dev.switchboard.persistence.DatabaseKinds#all")
    void conversationWithToolCallsSurvivesARestart(TestDatabase.Kind kind) throws Exception {
        String toolCalls = "[{\"id\":\"call_1\",\"serverId\":1,\"serverName\":\"文件\",\"toolName\":\"read\","
                + "\"displayName\":\"mcp_____read\",\"arguments\":{\"path\":\"a.md\"},\"status\":\"done\","
                + "\"response\":{\"content\":[{\"type\":\"text\",\"text\":\"" + "长".repeat(100_000) + "\"}]},\"isError\":false}]";
        try (TestDatabase db = DatabaseKinds.open(kind)) {
            long conversationId = db.inTransaction(em -> {
                Conversation conversation = new Conversation();
                conversation.setUserId("alice");
                conversation.setTenantId("default");
                conversation.setSessionId("s-1");
                conversation.setTitle("总结文件");
                conversation.setCreatedAt(1L);
                conversation.setUpdatedAt(2L);
                em.persist(conversation);
                em.flush();
                ChatMessage message = new ChatMessage();
                message.setConversationId(conversation.getId());
                message.setRole("assistant");
                message.setContent("好的，我来读取文件。");
                message.setToolCallsJson(toolCalls);
                message.setFinishReason("stop");
                message.setCreatedAt(3L);
                message.setUpdatedAt(4L);
                em.persist(message);
                return conversation.getId();
            });
            db.reopen();
            List<ChatMessage> messages = db.inTransaction(em -> em.createQuery(
                    "select m from ChatMessage m where m.conversationId = :c", ChatMessage.class)
                    .setParameter("c", conversationId).getResultList());
            assertEquals(1, messages.size());
            assertEquals("好的，我来读取文件。", messages.get(0).getContent());
            assertEquals(toolCalls, messages.get(0).getToolCallsJson(), "JSON of 300 KB with CJK text intact (more than TEXT holds)");
            assertEquals("总结文件", db.inTransaction(em -> em.find(Conversation.class, conversationId)).getTitle());

            db.run(em -> em.remove(em.find(Conversation.class, conversationId)));
            assertEquals(0L, (long) db.inTransaction(em -> em.createQuery("select count(m) from ChatMessage m", Long.class).getSingleResult()));
        }
    }
}
