package dev.switchboard.it.chat;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Chat;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.it.support.Tokens;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code POST /api/chat/completions} has one entry, {@code ChatCompletionsServlet}, outside JAX-RS: these are the
 * answers a stream request got when JAX-RS answered it, kept.
 */
class ChatStreamGateIT {

    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    @RegisterExtension
    static final NewUser alice = new NewUser();

    private static JsonObject streamed(String text) {
        return Json.createObjectBuilder().add("stream", true)
                .add("messages", Json.createArrayBuilder().add(Chat.user(text))).build();
    }

    @Test
    void aStreamAnswersWithItsHeadersAndIsStored() throws Exception {
        Script script = provider.script(Reply.text("Streamed past JAX-RS."));
        Chat.Streamed answer = Chat.stream(alice.token(), streamed("gate " + script.key()));

        assertEquals(200, answer.status());
        assertTrue(answer.contentType().startsWith("text/event-stream"), answer.contentType());
        List<JsonObject> chunks = answer.chunks();
        assertEquals("assistant", chunks.get(0).getJsonObject("delta").getString("role"));
        JsonObject done = chunks.stream().filter(c -> "done".equals(c.getString("type"))).findFirst().orElseThrow();
        long conversation = done.getJsonNumber("conversation_id").longValue();
        JsonObject stored = Api.get("/api/conversations/" + conversation + "/messages", alice.token()).expect(200).json()
                .getJsonArray("data").getJsonObject(1);
        assertEquals("Streamed past JAX-RS.", stored.getString("content"));
        assertEquals("stop", stored.getString("finishReason"));
    }

    @Test
    void anOversizedStreamRequestIsRefusedBeforeTheServletReadsIt() {
        String huge = "x".repeat(2 * 1024 * 1024);
        Api.Reply refused = Api.post("/api/chat/completions", alice.token(), streamed(huge));
        assertEquals(413, refused.status(), refused::text);
        assertEquals("request_too_large", refused.errorCode());
        Api.Reply anonymous = Api.post("/api/chat/completions", null, streamed(huge));
        assertEquals(413, anonymous.status(), "refused by size before the caller is even looked at");
    }

    @Test
    void aStreamSendsTheSameHeadersAsBefore() {
        Script script = provider.script(Reply.text("headers"));
        Api.Reply answer = Api.post("/api/chat/completions", alice.token(), streamed("headers " + script.key())).expect(200);
        assertEquals("no-cache", answer.headers().firstValue("Cache-Control").orElse(""));
        assertEquals("no", answer.headers().firstValue("X-Accel-Buffering").orElse(""));
        assertTrue(answer.headers().firstValue("X-Trace-Id").isPresent(), "the trace filter ran first");
        assertTrue(answer.text().endsWith("data: [DONE]\n\n"), answer.text());
    }

    @Test
    void refusedStreamsGetTheResourcesAnswers() {
        Api.Reply anonymous = Api.post("/api/chat/completions", null, streamed("anyone?")).expect(401);
        assertTrue(anonymous.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"), anonymous.headers().toString());

        String guest = Tokens.signedByServer(Tokens.claims("guest-" + UUID.randomUUID(), "guest").build());
        assertEquals("forbidden", Api.post("/api/chat/completions", guest, streamed("let me in")).expect(403).errorCode());

        String forgedKey = Tokens.signedByServer(Tokens.claims("forger-" + UUID.randomUUID(), "user").add("token_use", "api_key").build());
        assertEquals("api_key_revoked", Api.post("/api/chat/completions", forgedKey, streamed("forged")).expect(401).errorCode());

        assertEquals("invalid_json", Api.post("/api/chat/completions", alice.token(), "{\"stream\":true,").expect(400).errorCode());
        assertEquals("missing_field", Api.post("/api/chat/completions", alice.token(),
                Json.createObjectBuilder().add("stream", true).build()).expect(400).errorCode());
        assertEquals("not_found", Api.post("/api/chat/completions", alice.token(), Json.createObjectBuilder(streamed("whose?"))
                .add("assistant_id", Long.MAX_VALUE).build()).expect(404).errorCode());
        assertEquals(415, Api.send("POST", "/api/chat/completions", alice.token(), "text/plain", streamed("plain").toString()).status());
        assertEquals(405, Api.get("/api/chat/completions", alice.token()).status());
    }

    @Test
    void answersThatAreNotStreamsStillComeWhole() {
        Script script = provider.script(Reply.text("Whole."));
        JsonObject answer = Api.post("/api/chat/completions", alice.token(), Json.createObjectBuilder()
                .add("messages", Json.createArrayBuilder().add(Chat.user("whole " + script.key()))).build()).expect(200).json();
        assertEquals("Whole.", answer.getJsonArray("choices").getJsonObject(0).getJsonObject("message").getString("content"));
    }
}
