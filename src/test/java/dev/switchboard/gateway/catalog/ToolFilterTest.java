package dev.switchboard.gateway.catalog;

import dev.switchboard.backend.tools.GatewayToolName;
import dev.switchboard.gateway.GatewayBackend;
import dev.switchboard.gateway.ToolCatalog;
import dev.switchboard.platform.ApiException;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ToolFilterTest {

    private static final GatewayBackend FILES = new GatewayBackend("files", "1", Set.of(), Duration.ofSeconds(5), () -> null);
    private static final ToolCatalog.Entry READ = entry(FILES, """
            {"name":"read_file","title":"Read a File","description":"Reads one file",
             "annotations":{"readOnlyHint":true}}""");
    private static final ToolCatalog.Entry DELETE = entry(FILES, """
            {"name":"delete_file","description":"Removes it","annotations":{"idempotentHint":true,"openWorldHint":false}}""");
    private static final ToolCatalog.Entry BARE = entry(new GatewayBackend("web", "2", Set.of(), Duration.ofSeconds(5), () -> null),
            "{\"name\":\"fetch\",\"annotations\":\"not an object\"}");

    @Test
    void textIsFoundInTheNameTitleOrDescriptionInAnyCase() {
        assertTrue(filter(null, "FILES__READ", null, null).matches(READ, "offered"), "public name");
        assertTrue(filter(null, "a file", null, null).matches(READ, "offered"), "title");
        assertTrue(filter(null, "removes", null, null).matches(DELETE, "offered"), "description");
        assertFalse(filter(null, "removes", null, null).matches(READ, "offered"));
        assertFalse(filter(null, "anything", null, null).matches(BARE, "offered"), "a tool without title or description");
    }

    @Test
    void serverAndStatusAreMatchedExactly() {
        assertTrue(filter("files", null, null, null).matches(READ, "hidden"));
        assertFalse(filter("file", null, null, null).matches(READ, "offered"));
        assertFalse(filter("web", null, null, null).matches(READ, "offered"));
        assertTrue(filter(null, null, null, "hidden").matches(READ, "hidden"));
        assertFalse(filter(null, null, null, "offered").matches(READ, "hidden"));
    }

    /** A hint left out takes the specification's default; destructive means nothing for a read-only tool. */
    @ParameterizedTest
    @CsvSource({
            "readOnly,    true,  false, false",
            "destructive, false, true,  true",
            "idempotent,  false, true,  false",
            "openWorld,   true,  false, true",
    })
    void annotationsAreReadWithTheSpecificationsDefaults(String annotation, boolean read, boolean delete, boolean bare) {
        ToolFilter filter = filter(null, null, annotation, null);
        assertEquals(read, filter.matches(READ, "offered"), "read_file");
        assertEquals(delete, filter.matches(DELETE, "offered"), "delete_file");
        assertEquals(bare, filter.matches(BARE, "offered"), "fetch, whose annotations are not an object");
    }

    @Test
    void badValuesAreRefusedWithWhatTheyMustBe() {
        ApiException annotation = assertThrows(ApiException.class, () -> filter(null, null, "readonly", null));
        assertEquals("invalid_annotation", annotation.code());
        assertEquals("'annotation' must be one of [destructive, idempotent, openWorld, readOnly]", annotation.getMessage());
        ApiException status = assertThrows(ApiException.class, () -> filter(null, null, null, "denied"));
        assertEquals("'status' must be one of [hidden, offered]", status.getMessage());
        ApiException text = assertThrows(ApiException.class, () -> filter(null, "x".repeat(201), null, null));
        assertEquals("invalid_q", text.code());
        assertEquals("'q' must be at most 200 characters", text.getMessage());
        assertTrue(filter(" ", "  ", "", null).matches(BARE, "hidden"), "blank filters are no filters");
    }

    private static ToolFilter filter(String server, String q, String annotation, String status) {
        return ToolFilter.of(server, q, annotation, status);
    }

    private static ToolCatalog.Entry entry(GatewayBackend backend, String json) {
        try (var reader = Json.createReader(new java.io.StringReader(json))) {
            JsonObject tool = reader.readObject();
            return new ToolCatalog.Entry(backend, 0, tool, new GatewayToolName(backend.name(), tool.getString("name")));
        }
    }
}
