package dev.switchboard.knowledge;

import dev.switchboard.platform.ApiException;
import dev.switchboard.security.CurrentUser;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.EntityPart;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.SchemaProperty;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * {@code /api/knowledge/documents}: the documents of the caller's tenant's knowledge base. Admins of the tenant
 * upload, replace and delete them; every user of the tenant may list them, read their text and download them (the
 * same text retrieval gives every knowledge-enabled assistant of the tenant). Another tenant's document is 404.
 * <p>
 * A document is sent as multipart/form-data with one part named {@code file}, as browsers and {@code curl -F} send
 * files; its text is extracted ({@link DocumentExtraction}) before anything is stored, so a document that cannot be
 * read changes nothing, and the tenant's index is rebuilt before the answer, so the next chat run finds it.
 */
@Path("/knowledge/documents")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Knowledge base")
public class KnowledgeDocumentResource {

    private static final int DEFAULT_PAGE = 50;
    private static final int MAX_PAGE = 200;

    @Inject
    CurrentUser caller;

    @Inject
    DocumentStore store;

    @Inject
    DocumentExtraction extraction;

    @Inject
    DocumentIndexes indexes;

    @GET
    @RolesAllowed({"admin", "user"})
    @Operation(summary = "The tenant's knowledge documents, newest first; page with limit (1-200, default 50) and "
            + "cursor (the nextCursor of the previous page)")
    public JsonObject list(@QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        int size = limit == null ? DEFAULT_PAGE : (int) number("limit", limit);
        if (size < 1 || size > MAX_PAGE) {
            throw ApiException.badRequest("invalid_limit", "'limit' must be between 1 and " + MAX_PAGE);
        }
        List<KnowledgeDocument> found = store.page(caller.tenant(), size + 1, cursor == null ? null : number("cursor", cursor));
        JsonArrayBuilder data = JSON.createArrayBuilder();
        found.stream().limit(size).forEach(d -> data.add(json(d)));
        JsonObjectBuilder page = JSON.createObjectBuilder().add("data", data);
        if (found.size() > size) {
            page.add("nextCursor", String.valueOf(found.get(size - 1).getId()));
        }
        return page.build();
    }

    @POST
    @RolesAllowed("admin")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    @Operation(summary = "Upload a document (multipart/form-data, one part named file): its text is extracted and "
            + "indexed for the tenant; 201 with the document")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.MULTIPART_FORM_DATA,
            schema = @Schema(type = SchemaType.OBJECT, requiredProperties = "file",
                    properties = @SchemaProperty(name = "file", type = SchemaType.STRING, format = "binary"))))
    public Response upload(List<EntityPart> parts, @Context UriInfo uri) {
        UploadedFile file = UploadedFile.of(parts, extraction.settings().maxBytes());
        String tenant = caller.tenant();
        store.findByName(tenant, file.name()).ifPresent(other -> {
            throw DocumentErrors.nameTaken(file.name(), other.getId());
        });
        KnowledgeDocument created = store.create(tenant, caller.subject(), file, extraction.extract(file));
        indexes.refresh(tenant);
        return Response.created(uri.getAbsolutePathBuilder().path(String.valueOf(created.getId())).build())
                .entity(json(created)).build();
    }

    @GET
    @Path("/{id}")
    @RolesAllowed({"admin", "user"})
    @Operation(summary = "One document of the tenant")
    public JsonObject get(@PathParam("id") long id) {
        return json(store.find(caller.tenant(), id));
    }

    @PUT
    @Path("/{id}")
    @RolesAllowed("admin")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    @Operation(summary = "Replace a document with a new file (multipart/form-data, one part named file): a new "
            + "revision, under the new file's name, indexed in place of the old text")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.MULTIPART_FORM_DATA,
            schema = @Schema(type = SchemaType.OBJECT, requiredProperties = "file",
                    properties = @SchemaProperty(name = "file", type = SchemaType.STRING, format = "binary"))))
    public JsonObject replace(@PathParam("id") long id, List<EntityPart> parts) {
        // the body is judged before the document is looked up, as every endpoint does
        UploadedFile file = UploadedFile.of(parts, extraction.settings().maxBytes());
        String tenant = caller.tenant();
        store.find(tenant, id);
        KnowledgeDocument replaced = store.replace(tenant, id, caller.subject(), file, extraction.extract(file));
        indexes.refresh(tenant);
        return json(replaced);
    }

    @DELETE
    @Path("/{id}")
    @RolesAllowed("admin")
    @Operation(summary = "Delete a document: its passages leave the tenant's index at once")
    public Response delete(@PathParam("id") long id) {
        String tenant = caller.tenant();
        store.delete(tenant, id);
        indexes.refresh(tenant);
        return Response.noContent().build();
    }

    @GET
    @Path("/{id}/text")
    @RolesAllowed({"admin", "user"})
    @Produces("text/plain;charset=utf-8")
    @Operation(summary = "The text extracted from the document, as it is indexed (hits' line numbers count its lines)")
    public Response text(@PathParam("id") long id) {
        return Response.ok(store.text(caller.tenant(), id)).header("X-Content-Type-Options", "nosniff").build();
    }

    @GET
    @Path("/{id}/content")
    @RolesAllowed({"admin", "user"})
    @Produces(MediaType.WILDCARD)
    @Operation(summary = "The file as it was uploaded, as an attachment")
    public Response content(@PathParam("id") long id) {
        String tenant = caller.tenant();
        KnowledgeDocument document = store.find(tenant, id);
        // an attachment, never shown inline: an uploaded HTML page must not run as a page of Switchboard's origin
        return Response.ok(store.content(tenant, id), document.getMediaType())
                .header("Content-Disposition", "attachment; filename*=UTF-8''" + URLEncoder.encode(document.getName(),
                        StandardCharsets.UTF_8).replace("+", "%20"))
                .header("X-Content-Type-Options", "nosniff")
                .header("Content-Security-Policy", "sandbox")
                .build();
    }

    static JsonObject json(KnowledgeDocument d) {
        return JSON.createObjectBuilder()
                .add("id", d.getId())
                .add("name", d.getName())
                .add("mediaType", d.getMediaType())
                .add("sizeBytes", d.getSizeBytes())
                .add("sha256", d.getSha256())
                .add("textChars", d.getTextChars())
                .add("revision", d.getRevision())
                .add("createdBy", d.getCreatedBy())
                .add("createdAt", Instant.ofEpochMilli(d.getCreatedAt()).toString())
                .add("updatedBy", d.getUpdatedBy())
                .add("updatedAt", Instant.ofEpochMilli(d.getUpdatedAt()).toString())
                .build();
    }

    private static long number(String name, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid_" + name, "'" + name + "' must be a whole number");
        }
    }
}
