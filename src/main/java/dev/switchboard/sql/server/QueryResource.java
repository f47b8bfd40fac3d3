package dev.switchboard.sql.server;

import dev.switchboard.llm.LlmClient;
import dev.switchboard.platform.ApiException;
import dev.switchboard.platform.BodyFields;
import dev.switchboard.security.CurrentUser;
import dev.switchboard.sql.Caller;
import dev.switchboard.sql.QueryException;
import dev.switchboard.sql.auth.PermissionMapping;
import dev.switchboard.sql.service.QueryService;
import dev.switchboard.sql.service.SchemaService;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * {@code /api/query}: the NL->SQL service over REST for the console's Query page, with the caller's query-dialect
 * permissions (the token's {@code permissions} claim, else what {@code query.role.*} grants its groups). Runs the
 * same services as the dialect: a question becomes one guarded SELECT; a refusal answers the guard's reason.
 */
@Path("query")
@ApplicationScoped
@RolesAllowed({"admin", "user"})
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Query", description = "NL->SQL over the query database")
public class QueryResource {

    static final int MAX_QUESTION_CHARS = 2000;
    private static final Set<String> EXECUTE_FIELDS = Set.of("question", "limit", "offset", "timeout");

    @Inject
    QueryDatabase database;

    @Inject
    LlmClient llm;

    @Inject
    CurrentUser user;

    @Inject
    QueryPermissions permissions;

    @Inject
    QuerySessions sessions;

    private QueryService query;
    private SchemaService schema;

    @PostConstruct
    void init() {
        Clock clock = Clock.systemUTC();
        // the REST resource sends no session_id, so the store is never used here; QueryService needs one all the same
        query = new QueryService(database.catalog(), database.search(), database.guard(), database.executor(), llm,
                sessions.store(), clock);
        schema = new SchemaService(database.catalog(), database.search());
    }

    @POST
    @Path("execute")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Answer a question: {question, limit?, offset?, timeout?} -> the guarded SQL, its explanation, "
            + "the rows, row_count, execution_time and truncated")
    public Response execute(JsonObject body) {
        BodyFields fields = BodyFields.of(body, EXECUTE_FIELDS);
        String question = fields.requiredString("question");
        if (question.isBlank()) {
            throw ApiException.badRequest("missing_field", "'question' is required: the question in plain language");
        }
        if (question.length() > MAX_QUESTION_CHARS) {
            throw ApiException.badRequest("question_too_long", "'question' may have at most " + MAX_QUESTION_CHARS + " characters");
        }
        JsonObjectBuilder options = JSON.createObjectBuilder().add("explain", true).add("format", "json");
        for (String option : List.of("limit", "offset", "timeout")) {
            if (fields.has(option)) {
                options.add(option, fields.integer(option));
            }
        }
        JsonObject params = JSON.createObjectBuilder().add("query", question).add("options", options).build();
        return answer(() -> withColumns(query.execute(caller(), params)));
    }

    @GET
    @Path("schema/search")
    @Operation(summary = "Tables and columns relevant to a phrase (Chinese or English), with their comments and relevance")
    public Response search(@QueryParam("q") String phrase, @QueryParam("limit") Integer limit) {
        if (phrase == null || phrase.isBlank()) {
            throw ApiException.badRequest("missing_field", "'q' is required: words to look for in table and column names and comments");
        }
        JsonObjectBuilder params = JSON.createObjectBuilder().add("query", phrase);
        if (limit != null) {
            params.add("limit", limit);
        }
        return answer(() -> schema.search(caller(), params.build()));
    }

    @GET
    @Path("schema/tables")
    @Operation(summary = "The tables the caller may read, with their comments")
    public Response tables() {
        return answer(() -> schema.info(caller(), JsonValue.EMPTY_JSON_OBJECT));
    }

    @GET
    @Path("schema/tables/{name}")
    @Operation(summary = "One table: columns with types and comments, indexes, foreign keys, relationships")
    public Response table(@PathParam("name") String name) {
        return answer(() -> schema.info(caller(), JSON.createObjectBuilder().add("table", name).build()));
    }

    /** The caller as the query service knows callers: from the verified token's claims. */
    private Caller caller() {
        return permissions.mapping().caller(user.claims());
    }

    /** The result's column names in order, for a table header (JSON rows are objects); empty when no row came back. */
    private static JsonObject withColumns(JsonObject result) {
        JsonArrayBuilder columns = JSON.createArrayBuilder();
        JsonArray rows = result.getJsonArray("data");
        if (!rows.isEmpty()) {
            rows.getJsonObject(0).keySet().forEach(columns::add);
        }
        return JSON.createObjectBuilder(result).add("columns", columns).build();
    }

    private static Response answer(Supplier<JsonObject> call) {
        try {
            return Response.ok(call.get()).build();
        } catch (QueryException e) {
            return QueryErrors.response(e);
        }
    }
}
