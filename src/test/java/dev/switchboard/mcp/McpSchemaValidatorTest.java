package dev.switchboard.mcp;

import dev.switchboard.testing.McpSchemaValidator;
import dev.switchboard.testing.McpSchemaValidator.Sender;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The validator must catch what is wrong, or the "all sent messages validate" assertions prove nothing. */
class McpSchemaValidatorTest {

    @ParameterizedTest
    @ValueSource(strings = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})
    void acceptsValidAndRejectsInvalidClientMessages(String version) {
        McpSchemaValidator validator = McpSchemaValidator.forVersion(version);
        assertTrue(validator.problems(json("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
                + version + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"switchboard\",\"version\":\"0.1.0\"}}}")).isEmpty());
        assertTrue(validator.problems(json("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":3}}")).isEmpty());
        assertTrue(validator.problems(json("{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"result\":{}}")).isEmpty());
        assertTrue(validator.problems(json("{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"error\":{\"code\":-32601,\"message\":\"nope\"}}")).isEmpty());

        // tools/call without the tool name
        assertFalse(validator.problems(json("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{}}")).isEmpty());
        // initialize without clientInfo
        assertFalse(validator.problems(json("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"x\",\"capabilities\":{}}}")).isEmpty());
        // a server-side method sent by a client
        assertFalse(validator.problems(json("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"sampling/createMessage\",\"params\":{}}")).isEmpty());
        // wrong jsonrpc version
        assertFalse(validator.problems(json("{\"jsonrpc\":\"1.0\",\"id\":5,\"method\":\"ping\"}")).isEmpty());
        // cancelled with a request id that is neither string nor integer
        assertFalse(validator.problems(json("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":{}}}")).isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})
    void checksServerMessagesAndResultsByTheMethodTheyAnswer(String version) {
        McpSchemaValidator validator = McpSchemaValidator.forVersion(version);
        Sender server = Sender.SERVER;
        assertTrue(validator.problems(json("{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"method\":\"sampling/createMessage\",\"params\":"
                + "{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}}],\"maxTokens\":5}}"), server, null).isEmpty());
        assertTrue(validator.problems(json("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":"
                + "{\"progressToken\":\"p\",\"progress\":1}}"), server, null).isEmpty());
        String tools = "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}}]}}";
        assertTrue(validator.problems(json(tools), server, "tools/list").isEmpty());
        assertTrue(validator.problems(json("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}"), server, "ping").isEmpty());
        assertTrue(validator.problems(json("{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"result\":{\"role\":\"assistant\",\"model\":\"m\","
                + "\"content\":{\"type\":\"text\",\"text\":\"ok\"}}}"), Sender.CLIENT, "sampling/createMessage").isEmpty());

        // a result without the field its method requires: an empty object is a valid ServerResult, not a ListToolsResult
        assertFalse(validator.problems(json("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}"), server, "tools/list").isEmpty());
        // a client's sampling answer without content
        assertFalse(validator.problems(json("{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"result\":{\"role\":\"assistant\",\"model\":\"m\"}}"),
                Sender.CLIENT, "sampling/createMessage").isEmpty());
        // a client request sent by a server, a client notification sent by a server
        assertFalse(validator.problems(json("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}"), server, null).isEmpty());
        assertFalse(validator.problems(json("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"), server, null).isEmpty());
        // progress without its progress value; an error whose code is not an integer
        assertFalse(validator.problems(json("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"p\"}}"),
                server, null).isEmpty());
        assertFalse(validator.problems(json("{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":{\"code\":\"x\",\"message\":\"m\"}}"), server, null).isEmpty());
        // an answer to a method the peer has no request for
        assertFalse(validator.problems(json("{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{}}"), server, "no/such").isEmpty());
    }

    private static JsonObject json(String text) {
        try (var reader = Json.createReader(new java.io.StringReader(text))) {
            return reader.readObject();
        }
    }
}
