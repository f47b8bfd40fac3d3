package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.testing.McpSchemaValidator;
import dev.switchboard.testing.McpSchemaValidator.Sender;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Clients before 2025-06-18 get resource links as text, valid in their version's schema. */
class ResourceLinksAsTextTest {

    private static final String LINKS = "{'content':[{'type':'text','text':'two links'},"
            + "{'type':'resource_link','uri':'switchboard://b/demo://1','name':'one','description':'the first',"
            + "'mimeType':'text/plain','annotations':{'priority':0.5}},"
            + "{'type':'resource_link','uri':'switchboard://b/demo://2','name':'two','title':'Second'}],'isError':false}";

    @Test
    void onlyVersionsBeforeLinksNeedIt() {
        assertTrue(ResourceLinksAsText.neededFor("2025-03-26"));
        assertTrue(ResourceLinksAsText.neededFor("2024-11-05"));
        assertFalse(ResourceLinksAsText.neededFor("2025-06-18"));
        assertFalse(ResourceLinksAsText.neededFor("2025-11-25"));
    }

    @Test
    void linksInAToolResultBecomeTextValidIn20250326() {
        McpSchemaValidator old = McpSchemaValidator.forVersion("2025-03-26");
        JsonObject backend = json(LINKS);
        JsonRpcMessage untranslated = JsonRpcMessage.result(Json.createValue(3), backend);
        assertFalse(old.problems(untranslated.json(), Sender.SERVER, "tools/call").isEmpty(), "the links are invalid as they are");

        JsonObject response = new ResourceLinksAsText(answering(backend)).handle(request("tools/call"), null, null).json();
        assertTrue(old.problems(response, Sender.SERVER, "tools/call").isEmpty(), () -> old.problems(response, Sender.SERVER, "tools/call").toString());
        assertEquals(3, response.getInt("id"));
        var content = response.getJsonObject("result").getJsonArray("content");
        assertEquals("two links", content.getJsonObject(0).getString("text"));
        assertEquals("Resource one: switchboard://b/demo://1\nthe first", content.getJsonObject(1).getString("text"));
        assertEquals(0.5, content.getJsonObject(1).getJsonObject("annotations").getJsonNumber("priority").doubleValue());
        assertEquals("Resource Second: switchboard://b/demo://2", content.getJsonObject(2).getString("text"));
        assertFalse(response.getJsonObject("result").getBoolean("isError"), "the rest of the result is kept");
    }

    @Test
    void aLinkAsAPromptMessageBecomesText() {
        JsonObject prompt = json("{'messages':[{'role':'user','content':{'type':'text','text':'read this'}},"
                + "{'role':'user','content':{'type':'resource_link','uri':'demo://1','name':'one'}}]}");
        JsonObject response = new ResourceLinksAsText(answering(prompt)).handle(request("prompts/get"), null, null).json();
        assertTrue(McpSchemaValidator.forVersion("2025-03-26").problems(response, Sender.SERVER, "prompts/get").isEmpty(), response::toString);
        assertEquals("Resource one: demo://1", response.getJsonObject("result").getJsonArray("messages").getJsonObject(1)
                .getJsonObject("content").getString("text"));
    }

    @Test
    void answersWithoutLinksAndErrorsPassAsTheyAre() {
        JsonRpcMessage plain = JsonRpcMessage.result(Json.createValue(3), json("{'content':[{'type':'text','text':'hi'}]}"));
        assertSame(plain, new ResourceLinksAsText(answering(plain)).handle(request("tools/call"), null, null));
        JsonRpcMessage error = GatewayErrors.error(Json.createValue(3), GatewayErrors.INVALID_PARAMS, "Unknown tool", null);
        assertSame(error, new ResourceLinksAsText(answering(error)).handle(request("tools/call"), null, null));
        JsonRpcMessage list = JsonRpcMessage.result(Json.createValue(3), json(LINKS));
        assertSame(list, new ResourceLinksAsText(answering(list)).handle(request("resources/list"), null, null),
                "only tool results and prompts carry content blocks");
    }

    private static McpRouter answering(JsonObject result) {
        return answering(JsonRpcMessage.result(Json.createValue(3), result));
    }

    private static McpRouter answering(JsonRpcMessage response) {
        return new McpRouter() {
            @Override
            public JsonObject initializeResult(String protocolVersion) {
                throw new UnsupportedOperationException();
            }

            @Override
            public JsonRpcMessage handle(JsonRpcMessage request, Consumer<JsonObject> progress, ServerRequestHandler clientRequests) {
                return response;
            }
        };
    }

    private static JsonRpcMessage request(String method) {
        return JsonRpcMessage.request(Json.createValue(3), method, Json.createObjectBuilder().build());
    }

    private static JsonObject json(String singleQuoted) {
        try (var reader = Json.createReader(new StringReader(singleQuoted.replace('\'', '"')))) {
            return reader.readObject();
        }
    }
}
