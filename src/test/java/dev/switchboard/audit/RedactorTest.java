package dev.switchboard.audit;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RedactorTest {

    @Test
    void secretsAndConfiguredPiiNeverSurvive() {
        JsonObject input = Json.createObjectBuilder()
                .add("query", "weather in Berlin")
                .add("password", "hunter2-planted")
                .add("headers", Json.createObjectBuilder().add("Authorization", "Bearer planted-token-123").add("Cookie", "sid=planted"))
                .add("nested", Json.createArrayBuilder().add(Json.createObjectBuilder().add("api_key", "planted-key").add("phone", "13800138000")))
                .add("note", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLXBsYW50ZWQ")
                .add("text", "sk-plantedopenaikey1234567890")
                .add("count", 3)
                .build();
        String redacted = new Redactor(Set.of("phone")).redact(input).toString();
        for (String planted : new String[] {"hunter2", "planted-token", "sid=planted", "planted-key", "13800138000",
                "c2lnbmF0dXJlLXBsYW50ZWQ", "sk-planted"}) {
            assertFalse(redacted.contains(planted), planted + " leaked: " + redacted);
        }
        assertTrue(redacted.contains("weather in Berlin"), "ordinary values stay");
        assertTrue(redacted.contains("\"count\":3"));
        assertEquals(Redactor.MASK, new Redactor(Set.of()).redact(input).asJsonObject().getString("password"));
    }
}
