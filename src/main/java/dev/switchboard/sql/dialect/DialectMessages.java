package dev.switchboard.sql.dialect;

import dev.switchboard.sql.Jsons;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;

import java.util.Map;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** The messages of the query dialect the server sends: responses, error responses and notifications. */
public final class DialectMessages {

    private DialectMessages() {
    }

    public static JsonObject response(JsonValue id, JsonObject result) {
        return JSON.createObjectBuilder().add("type", "response").add("id", id).add("result", result).build();
    }

    public static JsonObject error(JsonValue id, QueryException e) {
        return error(id, e.code(), e.getMessage(), e.data());
    }

    public static JsonObject error(JsonValue id, QueryErrorCode code, String message, Map<String, Object> data) {
        JsonObjectBuilder error = JSON.createObjectBuilder().add("code", code.code()).add("message", message);
        if (!data.isEmpty()) {
            error.add("data", Jsons.of(data));
        }
        return JSON.createObjectBuilder().add("type", "response").add("id", id == null ? JsonValue.NULL : id)
                .add("error", error).build();
    }

    public static JsonObject notification(String method, JsonObject params) {
        return JSON.createObjectBuilder().add("type", "notification").add("method", method).add("params", params).build();
    }
}
