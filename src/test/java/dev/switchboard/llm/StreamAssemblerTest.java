package dev.switchboard.llm;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tool-call shapes seen from real providers, chunk by chunk. */
class StreamAssemblerTest {

    static JsonObject json(String text) {
        try (var reader = Json.createReader(new StringReader(text.replace('\'', '"')))) {
            return reader.readObject();
        }
    }

    static LlmReply assemble(String... chunks) throws LlmException {
        StreamAssembler assembler = new StreamAssembler(delta -> { });
        for (String chunk : chunks) {
            assembler.accept(json(chunk));
        }
        return assembler.finish(true);
    }

    @Test
    void wholeCallsAllNumberedZeroStayApart() throws LlmException {
        LlmReply reply = assemble(
                "{'choices':[{'index':0,'delta':{'tool_calls':[{'index':0,'id':'c1','function':{'name':'f','arguments':'{}'}}]}}]}",
                "{'choices':[{'index':0,'delta':{'tool_calls':[{'index':0,'id':'c2','function':{'name':'g','arguments':'{\\'a\\':1}'}}]}}]}",
                "{'choices':[{'index':0,'delta':{},'finish_reason':'stop'}]}");
        assertEquals(List.of(new ToolCall("c1", "f", "{}"), new ToolCall("c2", "g", "{\"a\":1}")), reply.toolCalls());
    }

    @Test
    void argumentsAsAnObjectAndMissingIdsAreAccepted() throws LlmException {
        LlmReply reply = assemble("{'choices':[{'index':0,'delta':{'tool_calls':[{'function':{'name':'f','arguments':{'path':'/tmp'}}}]},'finish_reason':'tool_calls'}]}");
        assertEquals(1, reply.toolCalls().size());
        assertEquals("{\"path\":\"/tmp\"}", reply.toolCalls().get(0).arguments());
        assertEquals("call_", reply.toolCalls().get(0).id().substring(0, 5), "a generated id");
    }

    @Test
    void errorsAndNamelessCallsAreRefused() {
        assertEquals(LlmException.Kind.FAILED, assertThrows(LlmException.class,
                () -> assemble("{'error':{'message':'context length exceeded'}}")).kind());
        assertEquals(LlmException.Kind.MALFORMED, assertThrows(LlmException.class,
                () -> assemble("{'choices':[{'index':0,'delta':{'tool_calls':[{'index':0,'function':{'arguments':'{}'}}]},'finish_reason':'tool_calls'}]}")).kind());
    }
}
