package dev.switchboard.knowledge;

import dev.switchboard.backend.builtin.BuiltinServer;
import dev.switchboard.security.CallerIdentity;
import dev.switchboard.mcp.server.InProcessToolServer;
import dev.switchboard.mcp.transport.InProcessServer;
import dev.switchboard.platform.json.WholeNumbers;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The built-in MCP server {@code knowledge}: one tool, {@code search}, over the caller's tenant's knowledge base (the
 * knowledge folder and the tenant's documents), answering what {@code GET /api/knowledge/search} answers. Every user
 * of a tenant may read its knowledge base; a search takes milliseconds, so it reports no progress.
 */
@ApplicationScoped
public class KnowledgeServer implements BuiltinServer {

    static final String TOOL = "search";

    @Inject
    KnowledgeRetriever retriever;

    @Override
    public String name() {
        return "knowledge";
    }

    @Override
    public InProcessServer serve(CallerIdentity caller) {
        return new InProcessToolServer(name(), "1.0.0", new InProcessToolServer.Tools() {
            @Override
            public JsonArray list() {
                return JSON.createArrayBuilder().add(tool()).build();
            }

            @Override
            public boolean has(String name) {
                return TOOL.equals(name);
            }

            @Override
            public JsonObject call(String name, JsonObject arguments, InProcessToolServer.Progress progress) {
                return search(caller.tenant(), arguments);
            }
        });
    }

    private JsonObject search(String tenant, JsonObject arguments) {
        String query = arguments.get("query") instanceof JsonString s ? s.getString() : null;
        if (query == null || query.isBlank() || query.length() > SearchParameters.MAX_QUESTION_CHARS) {
            return failure("'query' must be text of 1 to " + SearchParameters.MAX_QUESTION_CHARS + " characters");
        }
        JsonValue limitValue = arguments.get("limit");
        int limit = limitValue == null ? KnowledgeRetriever.DEFAULT_LIMIT : WholeNumbers.asInt(limitValue).orElse(0);
        if (limit < 1 || limit > SearchParameters.MAX_LIMIT) {
            return failure("'limit' must be a whole number from 1 to " + SearchParameters.MAX_LIMIT);
        }
        JsonValue minValue = arguments.get("minScore");
        double minScore = minValue instanceof JsonNumber n ? n.doubleValue() : KnowledgeRetriever.DEFAULT_MIN_SCORE;
        if (minValue != null && !(minValue instanceof JsonNumber) || minScore < 0 || minScore > 1) {
            return failure("'minScore' must be a number from 0 to 1");
        }
        JsonArrayBuilder data = JSON.createArrayBuilder();
        retriever.search(tenant, query, limit, minScore).forEach(hit -> data.add(KnowledgeHits.json(hit)));
        JsonObject result = JSON.createObjectBuilder().add("data", data).build();
        return JSON.createObjectBuilder()
                .add("content", JSON.createArrayBuilder().add(JSON.createObjectBuilder().add("type", "text").add("text", result.toString())))
                .add("structuredContent", result)
                .add("isError", false).build();
    }

    private static JsonObject failure(String message) {
        return JSON.createObjectBuilder()
                .add("content", JSON.createArrayBuilder().add(JSON.createObjectBuilder().add("type", "text").add("text", message)))
                .add("isError", true).build();
    }

    private static JsonObject tool() {
        JsonObject passage = JSON.createObjectBuilder().add("type", "object")
                .add("properties", JSON.createObjectBuilder()
                        .add("source", JSON.createObjectBuilder().add("type", "string").add("description",
                                "file, relative to the knowledge folder, or the knowledge document's name"))
                        .add("documentId", JSON.createObjectBuilder().add("type", "integer").add("description",
                                "the knowledge document the passage comes from; absent for a file of the folder"))
                        .add("lines", JSON.createObjectBuilder().add("type", "object").add("properties", JSON.createObjectBuilder()
                                .add("start", JSON.createObjectBuilder().add("type", "integer"))
                                .add("end", JSON.createObjectBuilder().add("type", "integer"))))
                        .add("score", JSON.createObjectBuilder().add("type", "number").add("minimum", 0).add("maximum", 1))
                        .add("snippet", JSON.createObjectBuilder().add("type", "string")))
                .add("required", JSON.createArrayBuilder().add("source").add("lines").add("score").add("snippet")).build();
        return JSON.createObjectBuilder()
                .add("name", TOOL)
                .add("description", "Finds the passages of the knowledge base (the knowledge folder's files and your "
                        + "tenant's documents) that answer a question best, in Chinese or English, each with its file or "
                        + "document, lines and a relevance score in [0, 1].")
                .add("inputSchema", JSON.createObjectBuilder().add("type", "object")
                        .add("properties", JSON.createObjectBuilder()
                                .add("query", JSON.createObjectBuilder().add("type", "string").add("minLength", 1)
                                        .add("maxLength", SearchParameters.MAX_QUESTION_CHARS))
                                .add("limit", JSON.createObjectBuilder().add("type", "integer").add("minimum", 1)
                                        .add("maximum", SearchParameters.MAX_LIMIT).add("default", KnowledgeRetriever.DEFAULT_LIMIT))
                                .add("minScore", JSON.createObjectBuilder().add("type", "number").add("minimum", 0).add("maximum", 1)
                                        .add("default", KnowledgeRetriever.DEFAULT_MIN_SCORE)))
                        .add("required", JSON.createArrayBuilder().add("query")))
                .add("outputSchema", JSON.createObjectBuilder().add("type", "object")
                        .add("properties", JSON.createObjectBuilder().add("data", JSON.createObjectBuilder()
                                .add("type", "array").add("items", passage)))
                        .add("required", JSON.createArrayBuilder().add("data")))
                .add("annotations", JSON.createObjectBuilder().add("readOnlyHint", true).add("destructiveHint", false)
                        .add("idempotentHint", true).add("openWorldHint", false))
                .build();
    }
}
