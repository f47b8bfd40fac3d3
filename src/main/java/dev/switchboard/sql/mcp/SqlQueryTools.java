package dev.switchboard.sql.mcp;

import dev.switchboard.sql.Caller;
import dev.switchboard.sql.Jsons;
import dev.switchboard.sql.QueryException;
import dev.switchboard.sql.dialect.QueryMethods;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.util.LinkedHashMap;
import java.util.Map;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The query service as the tools of a built-in MCP server named {@code sqlquery}: one tool per dialect method
 * ({@code query.execute} -> {@code query_execute}), each with input and output JSON schemas and MCP annotations,
 * called through the same {@link QueryMethods} as the dialect. A failure is a tool error ({@code isError}, no
 * {@code structuredContent}, which the output schema describes for successes only) whose text is
 * {@code {"error":{code,message,data}}} with the dialect's code and data.
 */
public final class SqlQueryTools {

    public static final String SERVER_NAME = "sqlquery";

    private record Tool(String method, String description, JsonObject input, JsonObject output, boolean readOnly,
                        boolean destructive, boolean idempotent) {
    }

    private final QueryMethods methods;
    private final Map<String, Tool> tools = new LinkedHashMap<>();

    public SqlQueryTools(QueryMethods methods) {
        this.methods = methods;
        add("query_execute", new Tool("query.execute", "Answers a natural-language question about the query database: "
                + "the model writes one SELECT over the relevant tables, which is checked and run read-only. Given `sql` "
                + "instead, runs that SELECT under the same checks.",
                Schemas.EXECUTE_INPUT, Schemas.EXECUTE_OUTPUT, true, false, false));
        add("query_explain", new Tool("query.explain", "Explains the SQL for a question (or a given SELECT): tables, "
                + "columns, conditions, operations and complexity read from the parsed statement.",
                Schemas.EXPLAIN_INPUT, Schemas.EXPLAIN_OUTPUT, true, false, false));
        add("query_suggest", new Tool("query.suggest", "Completes a partial question from the schema's comments, the "
                + "session's history and templates.", Schemas.SUGGEST_INPUT, Schemas.SUGGEST_OUTPUT, true, false, true));
        add("schema_info", new Tool("schema.info", "Describes one table (columns, indexes, foreign keys, relationships), "
                + "or lists the readable tables when no table is named.", Schemas.INFO_INPUT, Schemas.INFO_OUTPUT, true, false, true));
        add("schema_search", new Tool("schema.search", "Finds the tables and columns relevant to a phrase in Chinese or "
                + "English, ranked with relevance in [0,1].", Schemas.SEARCH_INPUT, Schemas.SEARCH_OUTPUT, true, false, true));
        add("session_create", new Tool("session.create", "Opens a query session that keeps history and context for "
                + "follow-up questions (expires one hour after last use).", Schemas.SESSION_CREATE_INPUT,
                Schemas.SESSION_CREATE_OUTPUT, false, false, false));
        add("session_get", new Tool("session.get", "Reads a session's history and context.", Schemas.SESSION_ID_INPUT,
                Schemas.SESSION_GET_OUTPUT, true, false, true));
        add("session_destroy", new Tool("session.destroy", "Ends a session and forgets its history.",
                Schemas.SESSION_ID_INPUT, Schemas.SESSION_DESTROY_OUTPUT, false, true, true));
    }

    private void add(String name, Tool tool) {
        tools.put(name, tool);
    }

    /** The {@code tools/list} entries. */
    public JsonArray list() {
        JsonArrayBuilder out = JSON.createArrayBuilder();
        tools.forEach((name, tool) -> out.add(JSON.createObjectBuilder()
                .add("name", name)
                .add("description", tool.description())
                .add("inputSchema", tool.input())
                .add("outputSchema", tool.output())
                .add("annotations", JSON.createObjectBuilder()
                        .add("readOnlyHint", tool.readOnly())
                        .add("destructiveHint", tool.destructive())
                        .add("idempotentHint", tool.idempotent())
                        // the query database is a closed world: no tool reaches outside it
                        .add("openWorldHint", false))));
        return out.build();
    }

    public boolean has(String name) {
        return tools.containsKey(name);
    }

    /** A {@code tools/call} result for the caller; an unknown tool name is an {@link IllegalArgumentException}. */
    public JsonObject call(Caller caller, String name, JsonObject arguments) {
        Tool tool = tools.get(name);
        if (tool == null) {
            throw new IllegalArgumentException("unknown sqlquery tool: " + name);
        }
        QueryMethods.Method method = methods.find(tool.method()).orElseThrow();
        try {
            JsonObject result = method.call(caller, arguments);
            return JSON.createObjectBuilder()
                    .add("content", JSON.createArrayBuilder().add(text(result.toString())))
                    .add("structuredContent", result)
                    .add("isError", false).build();
        } catch (QueryException e) {
            JsonObjectBuilder error = JSON.createObjectBuilder().add("code", e.code().code()).add("message", e.getMessage());
            if (!e.data().isEmpty()) {
                error.add("data", Jsons.of(e.data()));
            }
            JsonObject body = JSON.createObjectBuilder().add("error", error).build();
            return JSON.createObjectBuilder()
                    .add("content", JSON.createArrayBuilder().add(text(body.toString())))
                    .add("isError", true).build();
        }
    }

    private static JsonObject text(String text) {
        return JSON.createObjectBuilder().add("type", "text").add("text", text).build();
    }
}
