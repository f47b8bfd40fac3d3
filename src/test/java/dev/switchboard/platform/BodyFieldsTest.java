package dev.switchboard.platform;

import jakarta.json.Json;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The one set of rules for request bodies: each mistake its own code, and a message that names the field. */
class BodyFieldsTest {

    private static final Set<String> KNOWN = Set.of("name", "on", "count", "tags", "options");

    private static BodyFields fields(String json) {
        return BodyFields.of(Json.createReader(new java.io.StringReader(json.replace('\'', '"'))).readObject(), KNOWN, Set.of("id"));
    }

    private static void refused(String code, String message, org.junit.jupiter.api.function.Executable read) {
        ApiException e = assertThrows(ApiException.class, read);
        assertEquals(code, e.code());
        assertEquals(message, e.getMessage());
    }

    @Test
    void anUnknownFieldIsRefusedWithTheAllowedOnes() {
        refused("unknown_field", "Unknown field 'colour'. Allowed fields: count, name, on, options, tags",
                () -> fields("{'name':'x','colour':'red'}"));
        fields("{'name':'x','id':7}"); // echoed back from a GET: ignored
    }

    @Test
    void aFieldOfTheWrongTypeIsInvalidType() {
        refused("invalid_type", "'name' must be a string, got a number", () -> fields("{'name':42}").requiredString("name"));
        refused("invalid_type", "'on' must be true or false, got a string", () -> fields("{'on':'yes'}").bool("on"));
        refused("invalid_type", "'count' must be a whole number, got a number", () -> fields("{'count':1.5}").integer("count"));
        refused("invalid_type", "'tags' must be an array of strings, got an array", () -> fields("{'tags':[1]}").strings("tags"));
        refused("invalid_type", "'options' must be an object, got an array", () -> fields("{'options':[]}").object("options"));
    }

    @Test
    void aRequiredFieldThatIsAbsentOrNullIsMissing() {
        refused("missing_field", "'name' is required", () -> fields("{}").requiredString("name"));
        refused("missing_field", "'name' is required", () -> fields("{'name':null}").requiredString("name"));
        refused("missing_field", "'name' is required", () -> BodyFields.of(null, KNOWN).requiredString("name"));
    }

    @Test
    void optionalFieldsReadAsNullWhenAbsentOrNull() {
        BodyFields fields = fields("{'name':null,'count':3,'tags':['a','b'],'on':false}");
        assertNull(fields.string("name"));
        assertNull(fields.object("options"));
        assertEquals(3L, fields.integer("count"));
        assertEquals(List.of("a", "b"), fields.strings("tags"));
        assertEquals(false, fields.bool("on"));
    }
}
