package dev.switchboard.gateway;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class ContentUrisTest {

    static JsonObject text(String text) {
        return Json.createObjectBuilder().add("type", "text").add("text", text).build();
    }

    @Test
    void resourceLinksAndEmbeddedResourcesOfAToolResultNameTheGatewaysUris() {
        JsonObject result = Json.createObjectBuilder()
                .add("content", Json.createArrayBuilder()
                        .add(text("two resources"))
                        .add(Json.createObjectBuilder().add("type", "resource_link").add("uri", "demo://resource/1")
                                .add("name", "one").add("mimeType", "text/plain"))
                        .add(Json.createObjectBuilder().add("type", "resource").add("resource", Json.createObjectBuilder()
                                .add("uri", "file:///a b.txt").add("text", "hello"))))
                .add("structuredContent", Json.createObjectBuilder().add("uri", "demo://resource/1"))
                .add("isError", false)
                .build();
        JsonObject exposed = ContentUris.inToolResult("everything", result);
        assertEquals(text("two resources"), exposed.getJsonArray("content").getJsonObject(0));
        JsonObject link = exposed.getJsonArray("content").getJsonObject(1);
        assertEquals("switchboard://everything/demo://resource/1", link.getString("uri"));
        assertEquals("one", link.getString("name"), "the rest of the block is kept");
        assertEquals("text/plain", link.getString("mimeType"));
        JsonObject embedded = exposed.getJsonArray("content").getJsonObject(2).getJsonObject("resource");
        assertEquals("switchboard://everything/file:///a b.txt", embedded.getString("uri"));
        assertEquals("hello", embedded.getString("text"));
        assertEquals(result.get("structuredContent"), exposed.get("structuredContent"), "structured content is the tool's own");
        assertEquals(false, exposed.getBoolean("isError"));
        // the exposed URI routes back to the backend and its original URI
        assertEquals(new ResourceUri("everything", "demo://resource/1"), ResourceUri.parse(link.getString("uri")).orElseThrow());
    }

    @Test
    void aResultWithoutResourcesIsPassedOnAsItIs() {
        JsonObject result = Json.createObjectBuilder().add("content", Json.createArrayBuilder().add(text("Echo: hi"))).build();
        assertSame(result, ContentUris.inToolResult("everything", result));
        JsonObject noContent = Json.createObjectBuilder().add("structuredContent", Json.createObjectBuilder()).build();
        assertSame(noContent, ContentUris.inToolResult("everything", noContent));
    }

    @Test
    void aPromptsEmbeddedResourceNamesTheGatewaysUri() {
        JsonObject result = Json.createObjectBuilder().add("messages", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("role", "user").add("content", text("read this")))
                .add(Json.createObjectBuilder().add("role", "user").add("content", Json.createObjectBuilder()
                        .add("type", "resource").add("resource", Json.createObjectBuilder().add("uri", "demo://resource/2")
                                .add("text", "two"))))).build();
        JsonObject exposed = ContentUris.inPrompt("everything", result);
        assertEquals(text("read this"), exposed.getJsonArray("messages").getJsonObject(0).getJsonObject("content"));
        assertEquals("switchboard://everything/demo://resource/2", exposed.getJsonArray("messages").getJsonObject(1)
                .getJsonObject("content").getJsonObject("resource").getString("uri"));
        JsonObject plain = Json.createObjectBuilder().add("messages", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("role", "user").add("content", text("hi")))).build();
        assertSame(plain, ContentUris.inPrompt("everything", plain));
    }
}
