package dev.switchboard.it.chat;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Chat;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.Leftovers;
import dev.switchboard.it.support.Multipart;
import dev.switchboard.it.support.Names;
import dev.switchboard.it.support.ScriptedLlm;
import dev.switchboard.llm.ScriptedProvider.Reply;
import dev.switchboard.llm.ScriptedProvider.Script;
import dev.switchboard.testing.SampleDocuments;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

import static dev.switchboard.it.support.Multipart.field;
import static dev.switchboard.it.support.Multipart.file;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Knowledge documents managed through {@code /api/knowledge/documents}, end to end, in two tenants of their own (the
 * default tenant's knowledge base belongs to the folder tests): an admin uploads a Word document, the tenant's chat
 * run gets its passage (scripted LLM) and the tenant's {@code knowledge} MCP tool finds it; it is replaced by a PDF
 * (the new passage, not the old one) and deleted (nothing); the other tenant never sees it. Every refusal is checked
 * by its exact error body: unsupported type, file too large (in the body and by its Content-Length), empty file,
 * malformed uploads, a user who is not an admin.
 */
class KnowledgeDocumentsIT {

    private static final long MAX_BYTES = 10L * 1024 * 1024;

    @RegisterExtension
    static final ScriptedLlm provider = new ScriptedLlm();
    @RegisterExtension
    static final Leftovers leftovers = new Leftovers();

    static Tenant acme;
    static Tenant globex;
    static String word;

    /** A tenant of the test's, with an admin, a user, an assistant of the user that uses the knowledge base and a
     * built-in {@code knowledge} server shared in the tenant. */
    record Tenant(String id, String admin, String user, long assistant, String knowledgeServer) {

        static Tenant create(String label) {
            String root = Api.adminToken();
            String id = Names.unique(label);
            Api.post("/api/tenants", root, Json.createObjectBuilder().add("id", id).build()).expect(201);
            leftovers.tenant(id);
            String adminName = id + "-admin";
            Api.post("/api/users", root, Json.createObjectBuilder().add("username", adminName).add("password", "password-" + adminName)
                    .add("role", "admin").add("tenant", id).build()).expect(201);
            leftovers.user(adminName);
            String admin = Api.login(adminName, "password-" + adminName);
            String userName = id + "-user";
            Api.post("/api/users", root, Json.createObjectBuilder().add("username", userName).add("password", "password-" + userName)
                    .add("role", "user").add("tenant", id).build()).expect(201);
            leftovers.user(userName);
            String user = Api.login(userName, "password-" + userName);
            long assistant = Api.post("/api/assistants", user, Json.createObjectBuilder().add("name", Names.unique("kb"))
                    .add("knowledgeBaseEnabled", true).build()).expect(201).json().getJsonNumber("id").longValue();
            leftovers.assistant(assistant);
            String server = Names.unique("kb");
            long serverId = Api.post("/api/mcp-servers", admin, Json.createObjectBuilder().add("name", server).add("type", "builtin")
                    .add("command", "knowledge").add("scope", "shared").build()).expect(201).json().getJsonNumber("id").longValue();
            leftovers.server(serverId);
            return new Tenant(id, admin, user, assistant, server);
        }
    }

    @BeforeAll
    static void tenants() {
        Api.awaitReady();
        acme = Tenant.create("kdocs");
        globex = Tenant.create("kdocs-other");
        word = "zanthorp" + UUID.randomUUID().toString().substring(0, 8).replaceAll("[0-9-]", "q");
    }

    @AfterAll
    static void removeDocuments() {
        for (Tenant tenant : new Tenant[] {acme, globex}) {
            if (tenant == null) {
                continue;
            }
            for (JsonValue d : Api.get("/api/knowledge/documents", tenant.admin()).expect(200).json().getJsonArray("data")) {
                Api.delete("/api/knowledge/documents/" + d.asJsonObject().getJsonNumber("id"), tenant.admin());
            }
        }
    }

    @Test
    void anUploadedDocumentIsInjectedReplacedAndDeletedInItsTenantOnly() throws Exception {
        byte[] docx = SampleDocuments.docx("Release handbook", "Before every release of " + word
                + " the on-call engineer rotates the signing keys and updates the changelog.");
        Api.Reply uploaded = upload("POST", "/api/knowledge/documents", acme.admin(), file("handbook.docx", docx)).expect(201);
        JsonObject document = uploaded.json();
        long id = document.getJsonNumber("id").longValue();
        assertEquals("/api/knowledge/documents/" + id, URI.create(uploaded.headers().firstValue("Location").orElseThrow()).getPath());
        assertEquals("handbook.docx", document.getString("name"));
        assertEquals("application/vnd.openxmlformats-officedocument.wordprocessingml.document", document.getString("mediaType"));
        assertEquals(docx.length, document.getJsonNumber("sizeBytes").longValue());
        assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(docx)), document.getString("sha256"));
        assertEquals(1, document.getInt("revision"));
        assertEquals(acme.id() + "-admin", document.getString("createdBy"));

        // every user of the tenant sees it, its text and its file
        JsonArray listed = Api.get("/api/knowledge/documents", acme.user()).expect(200).json().getJsonArray("data");
        assertEquals(List.of(id), listed.stream().map(v -> v.asJsonObject().getJsonNumber("id").longValue()).toList());
        assertEquals(document, Api.get("/api/knowledge/documents/" + id, acme.user()).expect(200).json());
        Api.Reply text = Api.get("/api/knowledge/documents/" + id + "/text", acme.user()).expect(200);
        assertEquals("Release handbook\nBefore every release of " + word
                + " the on-call engineer rotates the signing keys and updates the changelog.", text.text());
        assertEquals(document.getInt("textChars"), text.text().length());
        HttpResponse<byte[]> download = download("/api/knowledge/documents/" + id + "/content", acme.user());
        assertEquals(200, download.statusCode());
        assertArrayEquals(docx, download.body());
        assertEquals("attachment; filename*=UTF-8''handbook.docx", download.headers().firstValue("Content-Disposition").orElseThrow());
        assertEquals("nosniff", download.headers().firstValue("X-Content-Type-Options").orElseThrow());

        JsonObject hit = Api.get(search(word), acme.user()).expect(200).json().getJsonArray("data").getJsonObject(0);
        assertEquals("handbook.docx", hit.getString("source"));
        assertEquals(id, hit.getJsonNumber("documentId").longValue());

        String context = askWithKnowledge(acme);
        assertTrue(context.contains("来源: handbook.docx 第 1-2 行\nRelease handbook\nBefore every release of " + word
                + " the on-call engineer rotates"), context);
        assertTrue(toolSearch(acme).contains("rotates the signing keys"), "the tenant's knowledge tool finds it");

        // the other tenant: not listed, not found, not searched, not injected
        assertTrue(Api.get("/api/knowledge/documents", globex.user()).expect(200).json().getJsonArray("data").isEmpty());
        assertEquals("not_found", Api.get("/api/knowledge/documents/" + id, globex.admin()).expect(404).errorCode());
        Api.get("/api/knowledge/documents/" + id + "/text", globex.user()).expect(404);
        assertEquals(404, download("/api/knowledge/documents/" + id + "/content", globex.user()).statusCode());
        upload("PUT", "/api/knowledge/documents/" + id, globex.admin(), file("x.txt", bytes("taken over"))).expect(404);
        Api.delete("/api/knowledge/documents/" + id, globex.admin()).expect(404);
        assertTrue(Api.get(search(word), globex.user()).expect(200).json().getJsonArray("data").isEmpty());
        assertEquals(null, askWithKnowledge(globex), "nothing injected for the other tenant");
        assertFalse(toolSearch(globex).contains("rotates the signing keys"), "the other tenant's knowledge tool does not find it");

        // replaced by a PDF: the new passage, not the old one
        byte[] pdf = SampleDocuments.pdf("Release handbook, second edition\nBefore every release of " + word
                + " the release manager freezes the main branch.");
        JsonObject replaced = upload("PUT", "/api/knowledge/documents/" + id, acme.admin(), file("handbook-v2.pdf", pdf))
                .expect(200).json();
        assertEquals(id, replaced.getJsonNumber("id").longValue());
        assertEquals(2, replaced.getInt("revision"));
        assertEquals("handbook-v2.pdf", replaced.getString("name"));
        assertEquals("application/pdf", replaced.getString("mediaType"));
        assertEquals(document.getString("createdAt"), replaced.getString("createdAt"));
        context = askWithKnowledge(acme);
        assertTrue(context.contains("来源: handbook-v2.pdf") && context.contains("freezes the main branch"), context);
        assertFalse(context.contains("rotates the signing keys"), context);

        // deleted: gone from the list, the index and the chat
        Api.delete("/api/knowledge/documents/" + id, acme.admin()).expect(204);
        Api.get("/api/knowledge/documents/" + id, acme.admin()).expect(404);
        assertTrue(Api.get("/api/knowledge/documents", acme.user()).expect(200).json().getJsonArray("data").isEmpty());
        assertTrue(Api.get(search(word), acme.user()).expect(200).json().getJsonArray("data").isEmpty());
        assertEquals(null, askWithKnowledge(acme), "nothing injected once deleted");
    }

    @Test
    void everyRefusalSaysWhatIsWrongInTheApisErrorShape() throws Exception {
        String admin = globex.admin();
        byte[] png = Base64.getDecoder().decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==");
        assertEquals(error("'photo.png' is image/png, which the knowledge base cannot read; it reads text (.txt, .md, .csv, "
                + "source code), PDF, Word (.docx, .doc), Excel (.xlsx, .xls), PowerPoint (.pptx, .ppt), OpenDocument (.odt, "
                + ".ods, .odp), RTF and HTML", "unsupported_file_type"),
                upload("POST", "/api/knowledge/documents", admin, file("photo.png", png)).expect(415).json());

        JsonObject tooLarge = error("Knowledge documents may be at most 10485760 bytes (switchboard.knowledge.documents.max-bytes); "
                + "split the document or ask the operator to raise the limit", "file_too_large");
        byte[] justOver = new byte[(int) MAX_BYTES + 1];
        java.util.Arrays.fill(justOver, (byte) 'a');
        assertEquals(tooLarge, upload("POST", "/api/knowledge/documents", admin, file("big.txt", justOver)).expect(413).json(),
                "a file one byte over the limit, read and counted");
        byte[] farOver = new byte[(int) MAX_BYTES + 200 * 1024];
        assertEquals(tooLarge, upload("POST", "/api/knowledge/documents", admin, file("bigger.txt", farOver)).expect(413).json(),
                "a body whose Content-Length is over the limit, refused before it is read");

        assertEquals(error("'empty.txt' is empty: upload a file with content", "empty_file"),
                upload("POST", "/api/knowledge/documents", admin, file("empty.txt", new byte[0])).expect(400).json());
        assertEquals(error("'file' is required: send the document as a multipart/form-data part named 'file' "
                        + "(curl -F file=@handbook.pdf)", "missing_field"),
                upload("POST", "/api/knowledge/documents", admin).expect(400).json());
        assertEquals(error("Unknown part 'colour': send the document as one multipart/form-data part named 'file'", "unknown_field"),
                upload("POST", "/api/knowledge/documents", admin, file("notes.txt", bytes("notes")), field("colour", "red"))
                        .expect(400).json());
        assertEquals(error("'file' must be a file, got a text field (a part without a file name)", "invalid_type"),
                upload("POST", "/api/knowledge/documents", admin, field("file", "just text")).expect(400).json());
        assertEquals(error("'scan.pdf' contains no text to search (a scanned document needs text recognition, which "
                        + "Switchboard does not do)", "no_text"),
                upload("POST", "/api/knowledge/documents", admin, file("scan.pdf", SampleDocuments.pdf(""))).expect(422).json());
        assertEquals(error("'secret.docx' is protected by a password; upload it unprotected", "encrypted_document"),
                upload("POST", "/api/knowledge/documents", admin, file("secret.docx", SampleDocuments.encryptedDocx("x")))
                        .expect(422).json());
        assertEquals("unsupported_media_type", Api.post("/api/knowledge/documents", admin,
                Json.createObjectBuilder().add("file", "notes").build()).expect(415).errorCode(), "JSON is not an upload");

        // a user of the tenant may read but not upload, replace or delete
        assertEquals("forbidden", upload("POST", "/api/knowledge/documents", globex.user(), file("notes.txt", bytes("mine")))
                .expect(403).errorCode());
        long id = upload("POST", "/api/knowledge/documents", admin, file("notes.txt", bytes("Notes of the team."))).expect(201)
                .json().getJsonNumber("id").longValue();
        assertEquals("forbidden", upload("PUT", "/api/knowledge/documents/" + id, globex.user(), file("notes.txt", bytes("mine")))
                .expect(403).errorCode());
        assertEquals("forbidden", Api.delete("/api/knowledge/documents/" + id, globex.user()).expect(403).errorCode());
        upload("POST", "/api/knowledge/documents", null, file("notes.txt", bytes("anyone"))).expect(401);

        // the same name twice: replace it instead
        assertEquals(error("A document named 'notes.txt' exists already (id " + id + "); replace it with PUT "
                        + "/api/knowledge/documents/" + id + " or rename the file", "document_exists"),
                upload("POST", "/api/knowledge/documents", admin, file("notes.txt", bytes("Other notes."))).expect(409).json());
        // a refused replacement changes nothing
        upload("PUT", "/api/knowledge/documents/" + id, admin, file("photo.png", png)).expect(415);
        assertEquals(1, Api.get("/api/knowledge/documents/" + id, admin).expect(200).json().getInt("revision"));
        assertEquals("invalid_limit", Api.get("/api/knowledge/documents?limit=0", admin).expect(400).errorCode());
        assertEquals("invalid_cursor", Api.get("/api/knowledge/documents?cursor=abc", admin).expect(400).errorCode());
    }

    @Test
    void documentsArePagedNewestFirst() {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(upload("POST", "/api/knowledge/documents", acme.admin(), file("page-" + i + ".md", bytes("# Page " + i)))
                    .expect(201).json().getJsonNumber("id").longValue());
        }
        JsonObject first = Api.get("/api/knowledge/documents?limit=2", acme.user()).expect(200).json();
        assertEquals(List.of(ids.get(2), ids.get(1)), idsOf(first));
        JsonObject second = Api.get("/api/knowledge/documents?limit=2&cursor=" + first.getString("nextCursor"), acme.user())
                .expect(200).json();
        // the second page goes on below the first (another test's document may follow this test's oldest)
        assertEquals(ids.get(0), idsOf(second).get(0));
        assertTrue(idsOf(second).stream().allMatch(id -> id < ids.get(1)), second.toString());
        ids.forEach(id -> Api.delete("/api/knowledge/documents/" + id, acme.admin()).expect(204));
    }

    private static List<Long> idsOf(JsonObject page) {
        return page.getJsonArray("data").stream().map(v -> v.asJsonObject().getJsonNumber("id").longValue()).toList();
    }

    /** The knowledge context the tenant's chat run gave the model, or null when none. */
    private static String askWithKnowledge(Tenant tenant) {
        Script script = provider.script(Reply.text("Noted."));
        Api.post("/api/chat/completions", tenant.user(), Json.createObjectBuilder().add("assistant_id", tenant.assistant())
                .add("messages", Json.createArrayBuilder().add(Chat.user("What happens before a release of " + word + "? "
                        + script.key()))).build()).expect(200);
        List<JsonObject> messages = script.requests().get(0).getJsonArray("messages").getValuesAs(JsonValue::asJsonObject);
        return messages.size() == 1 ? null : messages.get(0).getString("content");
    }

    /** What the tenant's built-in knowledge server answers its user over /mcp. */
    private static String toolSearch(Tenant tenant) {
        JsonArray steps = GatewayClient.run(tenant.user(), Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("op", "call").add("name", tenant.knowledgeServer() + "__search")
                        .add("arguments", Json.createObjectBuilder().add("query", "release of " + word))).build())
                .getJsonArray("steps");
        JsonObject result = steps.getJsonObject(0).getJsonObject("result");
        assertFalse(result.getBoolean("isError"), result::toString);
        return result.getJsonObject("structuredContent").toString();
    }

    private static String search(String query) {
        return "/api/knowledge/search?q=" + URLEncoder.encode(query, StandardCharsets.UTF_8);
    }

    private static JsonObject error(String message, String code) {
        return Json.createObjectBuilder().add("error", Json.createObjectBuilder().add("message", message)
                .add("type", "invalid_request_error").add("code", code)).build();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static Api.Reply upload(String method, String path, String token, Multipart.Part... parts) {
        return Multipart.send(method, path, token, parts);
    }

    private static HttpResponse<byte[]> download(String path, String token) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(Api.BASE + path))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofByteArray());
    }
}
