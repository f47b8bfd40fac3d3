package dev.switchboard.sql.mcp;

import jakarta.json.JsonObject;
import jakarta.json.JsonReader;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** The sqlquery tools' input and output JSON schemas, kept as data in {@code sql/mcp/schemas.json}. */
final class Schemas {

    private static final JsonObject ALL = load();

    static final JsonObject EXECUTE_INPUT = ALL.getJsonObject("EXECUTE_INPUT");
    static final JsonObject EXECUTE_OUTPUT = ALL.getJsonObject("EXECUTE_OUTPUT");
    static final JsonObject EXPLAIN_INPUT = ALL.getJsonObject("EXPLAIN_INPUT");
    static final JsonObject EXPLAIN_OUTPUT = ALL.getJsonObject("EXPLAIN_OUTPUT");
    static final JsonObject SUGGEST_INPUT = ALL.getJsonObject("SUGGEST_INPUT");
    static final JsonObject SUGGEST_OUTPUT = ALL.getJsonObject("SUGGEST_OUTPUT");
    static final JsonObject INFO_INPUT = ALL.getJsonObject("INFO_INPUT");
    static final JsonObject INFO_OUTPUT = ALL.getJsonObject("INFO_OUTPUT");
    static final JsonObject SEARCH_INPUT = ALL.getJsonObject("SEARCH_INPUT");
    static final JsonObject SEARCH_OUTPUT = ALL.getJsonObject("SEARCH_OUTPUT");
    static final JsonObject SESSION_CREATE_INPUT = ALL.getJsonObject("SESSION_CREATE_INPUT");
    static final JsonObject SESSION_CREATE_OUTPUT = ALL.getJsonObject("SESSION_CREATE_OUTPUT");
    static final JsonObject SESSION_ID_INPUT = ALL.getJsonObject("SESSION_ID_INPUT");
    static final JsonObject SESSION_GET_OUTPUT = ALL.getJsonObject("SESSION_GET_OUTPUT");
    static final JsonObject SESSION_DESTROY_OUTPUT = ALL.getJsonObject("SESSION_DESTROY_OUTPUT");

    private Schemas() {
    }

    private static JsonObject load() {
        try (InputStream in = Schemas.class.getClassLoader().getResourceAsStream("sql/mcp/schemas.json")) {
            if (in == null) {
                throw new IllegalStateException("missing resource sql/mcp/schemas.json");
            }
            try (JsonReader reader = JSON.createReader(in)) {
                return reader.readObject();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
