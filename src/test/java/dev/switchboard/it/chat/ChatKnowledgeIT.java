package dev.switchboard.it.chat;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Chat;
import dev.switchboard.it.support.Names;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Seed 002's retrieval in a chat run: passages go to the model before the question, only when the assistant asks for it. */
class ChatKnowledgeIT {

    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    @RegisterExtension
    static final NewUser alice = new NewUser();
    static String word;
    static Path document;

    @BeforeAll
    static void start() throws Exception {
        word = "zorblat" + UUID.randomUUID().toString().substring(0, 6);
        Path folder = Path.of(System.getProperty("it.knowledge.dir", "target/it-knowledge"));
        Files.createDirectories(folder);
        document = folder.resolve("chat-knowledge-" + word + ".md");
        Files.writeString(document, "# Release checklist\n\nBefore every release of " + word
                + " the on-call engineer rotates the signing keys and updates the changelog.\n");
        Instant deadline = Instant.now().plusSeconds(30);
        // wait for this file itself: pieces of the word (identifier parts, bigrams) may match documents another test left
        while (!Api.get("/api/knowledge/search?q=" + word, alice.token()).expect(200).text().contains(document.getFileName().toString())) {
            assertTrue(Instant.now().isBefore(deadline), "the knowledge index picked up the new document");
            Thread.sleep(300);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (document != null) {
            Files.deleteIfExists(document);
        }
    }

    static long assistant(boolean knowledge) {
        return Api.post("/api/assistants", alice.token(), Json.createObjectBuilder().add("name", Names.unique("kb"))
                .add("knowledgeBaseEnabled", knowledge).build()).expect(201).json().getJsonNumber("id").longValue();
    }

    static List<JsonObject> ask(long assistant) {
        Script script = provider.script(Reply.text("Rotate the signing keys first."));
        Api.post("/api/chat/completions", alice.token(), Json.createObjectBuilder().add("assistant_id", assistant)
                .add("messages", Json.createArrayBuilder().add(Chat.user("What happens before a release of " + word
                        + "? " + script.key()))).build()).expect(200);
        return script.requests().get(0).getJsonArray("messages").getValuesAs(JsonValue::asJsonObject);
    }

    @Test
    void passagesAreInjectedBeforeTheQuestionWithTheirSource() {
        List<JsonObject> messages = ask(assistant(true));
        assertEquals(2, messages.size(), messages.toString());
        String context = messages.get(0).getString("content");
        assertEquals("user", messages.get(0).getString("role"));
        assertTrue(context.contains("rotates the signing keys"), context);
        assertTrue(context.contains(document.getFileName().toString()), "the source is named: " + context);
        assertTrue(messages.get(1).getString("content").startsWith("What happens before a release"), "the question stays last");
        JsonObject conversation = Api.get("/api/conversations", alice.token()).expect(200).json().getJsonArray("data").getJsonObject(0);
        String stored = Api.get("/api/conversations/" + conversation.getJsonNumber("id") + "/messages", alice.token()).expect(200).text();
        assertFalse(stored.contains("rotates the signing keys"), "retrieved passages are not stored as the user's words");
    }

    @Test
    void nothingIsInjectedWhenTheAssistantDoesNotUseTheKnowledgeBase() {
        List<JsonObject> messages = ask(assistant(false));
        assertEquals(1, messages.size(), messages.toString());
    }
}
