package dev.switchboard.it.console;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Leftovers;
import dev.switchboard.it.support.Names;
import dev.switchboard.testing.SampleDocuments;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The knowledge base page in a real browser: {@code src/test/node/console-knowledge-e2e.mjs} drives Debian's Chromium
 * through uploads (a PNG refused in words, a Word document made here with Apache POI), the document's text, a
 * question that finds it, a download compared byte for byte, a replacement by a PDF made with PDFBox, the page as a
 * user of the tenant sees it (read-only) and on a phone screen, and the deletion. The harness fails a step on a
 * console error, an unnamed control, sideways scrolling or the words "null"/"undefined" on the page. Afterwards the
 * REST API shows the document the browser deleted is gone.
 */
class ConsoleKnowledgeBrowserIT {

    private static final Path LOG = Paths.get("target", "console-knowledge-e2e.log").toAbsolutePath();

    @RegisterExtension
    static final Leftovers leftovers = new Leftovers();

    @Test
    void manageTheKnowledgeBaseInTheBrowser() throws Exception {
        Api.awaitReady();
        String root = Api.adminToken();
        String tenant = Names.unique("kb-console");
        Api.post("/api/tenants", root, Json.createObjectBuilder().add("id", tenant).build()).expect(201);
        leftovers.tenant(tenant);
        String admin = tenant + "-admin";
        String user = tenant + "-user";
        for (String[] account : new String[][] {{admin, "admin"}, {user, "user"}}) {
            Api.post("/api/users", root, Json.createObjectBuilder().add("username", account[0]).add("password", "password-" + account[0])
                    .add("role", account[1]).add("tenant", tenant).build()).expect(201);
            leftovers.user(account[0]);
        }

        String word = "zanthorp" + UUID.randomUUID().toString().substring(0, 8).replaceAll("[0-9-]", "q");
        Path files = Files.createDirectories(Paths.get("target", "console-knowledge").toAbsolutePath());
        Path docx = Files.write(files.resolve("handbook.docx"), SampleDocuments.docx("Release handbook",
                "Before every release of " + word + " the on-call engineer rotates the signing keys."));
        Path pdf = Files.write(files.resolve("handbook-v2.pdf"), SampleDocuments.pdf("Release handbook, second edition\n"
                + "Before every release of " + word + " the release manager freezes the main branch."));
        Path png = Files.write(files.resolve("photo.png"), Base64.getDecoder().decode(
                "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="));

        BrowserWalkthrough.Outcome walk = BrowserWalkthrough.run("console-knowledge-e2e.mjs", LOG, List.of(
                "--tenant-admin", admin, "--tenant-user", user, "--docx", docx.toString(), "--pdf", pdf.toString(),
                "--png", png.toString(), "--word", word));
        String adminToken = Api.login(admin, "password-" + admin);
        if (walk.result() == null || walk.result().containsKey("failed")) {
            // what the browser left behind goes, so the tenant can be removed
            Api.get("/api/knowledge/documents", adminToken).expect(200).json().getJsonArray("data").forEach(d ->
                    Api.delete("/api/knowledge/documents/" + d.asJsonObject().getJsonNumber("id"), adminToken));
        }
        JsonObject result = walk.assertPassed();

        long id = result.getJsonNumber("documentId").longValue();
        assertEquals("not_found", Api.get("/api/knowledge/documents/" + id, adminToken).expect(404).errorCode(),
                "the document deleted in the browser is gone");
        assertTrue(Api.get("/api/knowledge/documents", adminToken).expect(200).json().getJsonArray("data").isEmpty());
        List<String> shots = BrowserWalkthrough.screenshots("knowledge-\\d\\d-.*\\.png");
        assertEquals(result.getJsonArray("screenshots").size(), shots.size(), "one screenshot per step: " + shots);
        assertTrue(shots.size() >= 9, "every step kept a screenshot: " + shots);
    }
}
