package dev.switchboard.sql.server;

import dev.switchboard.platform.ApiError;
import dev.switchboard.sql.Jsons;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.Map;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * A query service failure as a REST error: the usual {@code {"error":{message,type,code}}} with an HTTP status for
 * the dialect's code, a message that says what happened and keeps the service's own words (and the guard's reason),
 * plus {@code seedCode} and the dialect's {@code data} (e.g. {@code reason}, {@code sql}, {@code required_permission}).
 */
final class QueryErrors {

    /** status: the HTTP status (422 for a request understood but not answerable, which JAX-RS 3.1 has no constant for). */
    private record Kind(int status, String type, String code, String headline) {
    }

    private static final Map<QueryErrorCode, Kind> KINDS = Map.ofEntries(
            Map.entry(QueryErrorCode.INVALID_PARAMS, new Kind(400, "invalid_request_error", "invalid_params", "A parameter is not valid")),
            Map.entry(QueryErrorCode.QUERY, new Kind(422, "query_error", "query_refused", "The SQL was refused")),
            Map.entry(QueryErrorCode.SQL, new Kind(422, "query_error", "sql_error", "The SQL did not run")),
            Map.entry(QueryErrorCode.SCHEMA, new Kind(422, "query_error", "schema_not_found", "No matching table")),
            Map.entry(QueryErrorCode.AUTHORIZATION, new Kind(403, "permission_error", "query_forbidden", "You may not read this")),
            Map.entry(QueryErrorCode.TIMEOUT, new Kind(504, "query_error", "query_timeout", "The query ran too long")),
            Map.entry(QueryErrorCode.LLM, new Kind(502, "llm_error", "llm_unavailable", "The model did not write SQL")),
            Map.entry(QueryErrorCode.DATABASE, new Kind(503, "query_error", "database_unavailable", "The query database cannot be reached")),
            Map.entry(QueryErrorCode.SERVER, new Kind(503, "query_error", "server_busy", "The query service is busy")));

    private static final Kind INTERNAL = new Kind(500, "api_error", "internal_error", "The query failed");

    private QueryErrors() {
    }

    static Response response(QueryException e) {
        Kind kind = KINDS.getOrDefault(e.code(), INTERNAL);
        Object reason = e.data().get("reason");
        String message = kind.headline() + (reason instanceof String r && !r.isBlank() ? " (" + r + ")" : "") + ": " + e.getMessage();
        JsonObject body = ApiError.body(message, kind.type(), kind.code());
        JsonObjectBuilder error = JSON.createObjectBuilder(body.getJsonObject("error")).add("seedCode", e.code().code());
        if (!e.data().isEmpty()) {
            error.add("details", Jsons.of(e.data()));
        }
        return Response.status(kind.status()).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(JSON.createObjectBuilder().add("error", error).build()).build();
    }
}
