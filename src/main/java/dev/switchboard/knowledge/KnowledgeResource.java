package dev.switchboard.knowledge;

import dev.switchboard.security.CurrentUser;
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
 * {@code /api/knowledge}: what retrieval would inject for a question, and a forced rebuild of the folder's index. A
 * caller searches its tenant's knowledge base: the knowledge folder's files (one folder per server, shared by every
 * tenant) and the tenant's own documents ({@link KnowledgeDocumentResource}), the passages every knowledge-enabled
 * assistant of the tenant gets.
 */
@Path("/knowledge")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Knowledge base", description = "Retrieval (RAG) from the knowledge folder and the tenant's documents, and the documents themselves")
public class KnowledgeResource {

    @Inject
    KnowledgeRetriever retriever;

    @Inject
    CurrentUser caller;

    @GET
    @Path("/search")
    @RolesAllowed({"admin", "user"})
    @Operation(summary = "The passages of the caller's tenant's knowledge base (folder and documents) that match a "
            + "question best, scores normalised to [0, 1] (defaults: 3 hits, minimum 0.1)")
    public JsonObject search(@QueryParam("q") String q, @QueryParam("limit") String limit,
                             @QueryParam("minScore") String minScore) {
        SearchParameters parameters = SearchParameters.parse(q, limit, minScore);
        JsonArrayBuilder data = JSON.createArrayBuilder();
        for (KnowledgeHit hit : retriever.search(caller.tenant(), parameters.question(), parameters.limit(), parameters.minScore())) {
            data.add(KnowledgeHits.json(hit));
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
