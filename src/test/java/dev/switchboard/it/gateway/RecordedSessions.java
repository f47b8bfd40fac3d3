package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import jakarta.json.JsonObject;

import java.util.List;

/** The gateway sessions the server recorded, as an admin lists them with {@code GET /api/gateway/sessions}. */
final class RecordedSessions {

    private RecordedSessions() {
    }

    /** The sessions of the subject, newest first, with more query parameters ({@code &state=ended}...). */
    static List<JsonObject> of(String subject, String query) {
        return Api.get("/api/gateway/sessions?subject=" + subject + query, Api.adminToken()).expect(200).json()
                .getJsonArray("data").getValuesAs(JsonObject.class);
    }
}
