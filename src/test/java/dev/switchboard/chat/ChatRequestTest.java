package dev.switchboard.chat;

import dev.switchboard.platform.ApiException;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a chat request may say, and what of it reaches the provider. */
class ChatRequestTest {

    static JsonObject json(String text) {
        try (var reader = Json.createReader(new StringReader(text.replace('\'', '"')))) {
            return reader.readObject();
        }
    }

    /** The refusal's message (the codes are checked over HTTP in ChatCompletionsIT). */
    static String refusal(String body, String header) {
        return assertThrows(ApiException.class, () -> ChatRequest.parse(json(body), header)).getMessage();
    }

    @Test
    void seedFieldsAreReadAndProviderFieldsPassThrough() {
        ChatRequest request = ChatRequest.parse(json("{'model':'llama3.2','temperature':0.7,'max_tokens':100,'top_p':0.9,"
                + "'tool_choice':'auto','stream':true,'stream_options':{'include_usage':true},'session_id':'sess_abc123',"
                + "'assistant_id':7,'messages':[{'role':'system','content':'s'},{'role':'user','content':'q'},"
                + "{'role':'assistant','content':null,'tool_calls':[]},{'role':'tool','tool_call_id':'c1','content':'r'}],"
                + "'tools':[{'type':'function','function':{'name':'read_file'}}]}"), null);
        assertEquals("llama3.2", request.model());
        assertTrue(request.stream());
        assertTrue(request.includeUsage());
        assertEquals("sess_abc123", request.sessionId());
        assertEquals(7L, request.assistantId());
        assertEquals(1, request.tools().size());
        assertEquals("q", request.lastUserText());
        assertEquals(List.of("tool"), request.newMessages().stream().map(m -> m.getString("role")).toList());
        JsonObject options = request.options();
        assertEquals(0.9, options.getJsonNumber("top_p").doubleValue());
        assertEquals("auto", options.getString("tool_choice"));
        for (String own : List.of("messages", "tools", "stream", "stream_options", "session_id", "assistant_id")) {
            assertFalse(options.containsKey(own), own + " is Switchboard's, not the provider's");
        }
    }

    @Test
    void assistantComesFromTheBodyOrTheHeader() {
        assertEquals(12L, ChatRequest.parse(json("{'messages':[{'role':'user','content':'q'}]}"), "12").assistantId());
        assertEquals(5L, ChatRequest.parse(json("{'assistant_id':'5','messages':[{'role':'user','content':'q'}]}"), "12").assistantId());
        assertNull(ChatRequest.parse(json("{'messages':[{'role':'user','content':'q'}]}"), null).assistantId());
        assertTrue(refusal("{'assistant_id':'x','messages':[{'role':'user','content':'q'}]}", null).contains("assistant_id"));
        // beyond a long's range: refused, not read as its low bits (2^64 + 12 would be 12)
        assertTrue(refusal("{'assistant_id':18446744073709551628,'messages':[{'role':'user','content':'q'}]}", null)
                .contains("assistant_id"));
        assertTrue(refusal("{'assistant_id':12.5,'messages':[{'role':'user','content':'q'}]}", null).contains("assistant_id"));
        assertTrue(refusal("{'messages':[{'role':'user','content':'q'}]}", "abc").contains("X-Assistant-Id"));
    }

    @Test
    void badBodiesAreNamed() {
        assertEquals("'messages' is required", refusal("{}", null));
        assertEquals("'messages' must be an array, got a string", refusal("{'messages':'hi'}", null));
        assertTrue(refusal("{'messages':[]}", null).contains("'messages'"));
        assertTrue(refusal("{'messages':[{'content':'no role'}]}", null).contains("messages[0] needs a 'role'"));
        assertTrue(refusal("{'messages':[{'role':'wizard','content':'x'}]}", null).contains("messages[0]"));
        assertTrue(refusal("{'messages':[{'role':'tool','content':'x'}]}", null).contains("tool_call_id"));
        String ok = "{'messages':[{'role':'user','content':'q'}],";
        assertTrue(refusal(ok + "'tools':[{'type':'function'}]}", null).contains("tools[0]"));
        assertTrue(refusal(ok + "'tools':{}}", null).contains("'tools' must be an array"));
        assertTrue(refusal(ok + "'stream':'yes'}", null).contains("'stream' must be true or false"));
        assertTrue(refusal(ok + "'temperature':'hot'}", null).contains("'temperature' must be a number"));
        assertTrue(refusal(ok + "'session_id':''}", null).contains("'session_id'"));
        assertTrue(refusal(ok + "'tool_choice':'always'}", null).contains("'tool_choice'"));
        assertTrue(refusal(ok + "'tool_choice':{'type':'function'}}", null).contains("'tool_choice'"));
    }
}
