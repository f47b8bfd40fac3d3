package dev.switchboard.knowledge;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * {@code /api/knowledge}: what retrieval would inject for a question, and a forced rebuild. The knowledge base is
 * one folder per server, readable by every user (the same passages every knowledge-enabled assistant gets).
 */
@Path("/knowledge")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Knowledge base", description = "Inspect retrieval from the knowledge folder (RAG)")
public class KnowledgeResource {

    @Inject
    KnowledgeRetriever retriever;

    @GET
    @Path("/search")
    @RolesAllowed({"admin", "user"})
    @Operation(summary = "The passages that match a question best, scores normalised to [0, 1] (defaults: 3 hits, minimum 0.1)")
    public JsonObject search(@QueryParam("q") String q, @QueryParam("limit") String limit,
                             @QueryParam("minScore") String minScore) {
        SearchParameters parameters = SearchParameters.parse(q, limit, minScore);
        JsonArrayBuilder data = JSON.createArrayBuilder();
        for (KnowledgeHit hit : retriever.search(parameters.question(), parameters.limit(), parameters.minScore())) {
            data.add(JSON.createObjectBuilder()
                    .add("source", hit.source())
                    .add("lines", JSON.createObjectBuilder().add("start", hit.startLine()).add("end", hit.endLine()))
                    .add("score", Math.round(hit.score() * 10_000) / 10_000.0)
                    .add("snippet", hit.text()));
        }
        return JSON.createObjectBuilder().add("data", data).build();
    }

    @POST
    @Path("/reindex")
    @RolesAllowed("admin")
    @Operation(summary = "Rebuild the index from the knowledge folder now (it also follows changes by itself)")
    public JsonObject reindex() {
        IndexStats stats = retriever.reindex();
        return JSON.createObjectBuilder()
                .add("folder", retriever.settings().folder().toString())
                .add("files", stats.files())
                .add("passages", stats.passages())
                .add("skipped", stats.skipped())
                .add("millis", stats.millis())
                .build();
    }
}
