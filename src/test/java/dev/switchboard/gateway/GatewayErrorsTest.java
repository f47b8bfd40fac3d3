package dev.switchboard.gateway;

import dev.switchboard.testing.McpSchemaValidator;
import dev.switchboard.testing.McpSchemaValidator.Sender;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The gateway's error responses are valid MCP server messages, with or without the id of what they answer. */
class GatewayErrorsTest {

    private static final McpSchemaValidator LATEST = McpSchemaValidator.forVersion("2025-11-25");

    @Test
    void anErrorWithoutAKnownIdHasNoIdMember() {
        for (JsonValue unknown : new JsonValue[]{null, JsonValue.NULL}) {
            JsonObject error = GatewayErrors.error(unknown, GatewayErrors.PARSE_ERROR, "Parse error", null).json();
            assertFalse(error.containsKey("id"), error::toString);
            assertEquals(GatewayErrors.PARSE_ERROR, error.getJsonObject("error").getInt("code"));
            assertTrue(LATEST.problems(error, Sender.SERVER, null).isEmpty(), () -> LATEST.problems(error, Sender.SERVER, null).toString());
        }
    }

    @Test
    void anErrorAnsweringARequestCarriesItsId() {
        JsonObject error = GatewayErrors.error(Json.createValue(7), GatewayErrors.METHOD_NOT_FOUND, "Method not found",
                Json.createObjectBuilder().add("method", "x").build()).json();
        assertEquals(7, error.getInt("id"));
        assertEquals("x", error.getJsonObject("error").getJsonObject("data").getString("method"));
        assertTrue(LATEST.problems(error, Sender.SERVER, null).isEmpty());
    }
}
