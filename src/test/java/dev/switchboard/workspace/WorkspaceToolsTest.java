package dev.switchboard.workspace;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The built-in tools against a real directory: confinement (the exact refusals the LLM reads), limits, expiry. */
class WorkspaceToolsTest {

    @TempDir
    Path temp;

    Workspaces workspaces;
    Workspace workspace;
    Path outside;

    @BeforeEach
    void open() throws Exception {
        workspaces = new Workspaces();
        workspaces.dataDir = temp.resolve("data").toString();
        workspaces.configuredRoot = Optional.empty();
        workspaces.ttl = Duration.ofHours(1);
        workspaces.maxFileBytes = 64;
        workspaces.maxFiles = 3;
        workspace = workspaces.open("default", "alice", "sess-1");
        outside = Files.createDirectories(temp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "top secret");
    }

    JsonObject call(String tool, String path, String content) {
        var args = Json.createObjectBuilder();
        if (path != null) {
            args.add("path", path);
        }
        if (content != null) {
            args.add("content", content);
        }
        return WorkspaceTools.call(workspace, tool, args.build());
    }

    static String text(JsonObject result) {
        return result.getJsonArray("content").getJsonObject(0).getString("text");
    }

    static void refused(JsonObject result, String message) {
        assertTrue(result.getBoolean("isError"), result.toString());
        assertEquals(message, text(result));
    }

    @Test
    void theWorkspaceLivesUnderTheDataDirPerUserAndSession() {
        Path dir = workspace.directory();
        assertEquals(temp.resolve("data").resolve("mcp_workspaces").toAbsolutePath(), dir.getParent().getParent());
        assertEquals("sess-1", dir.getFileName().toString());
        assertFalse(workspaces.open("default", "bob", "sess-1").directory().equals(dir), "same session id, other user, other files");
        assertTrue(Workspaces.directoryName("../x").startsWith("s-"), "an id that is not a plain name is hashed");
    }

    @Test
    void writeReadListDelete() {
        assertEquals("Wrote 5 bytes to notes/a.md", text(call("write_file", "notes/a.md", "hello")));
        assertEquals("hello", text(call("read_file", "notes/a.md", null)));
        assertEquals("notes/\nnotes/a.md (5 bytes)", text(call("list_files", null, null)));
        assertEquals("Deleted notes/a.md", text(call("delete_file", "./notes/a.md", null)));
        assertEquals("notes/", text(call("list_files", ".", null)));
    }

    @Test
    void pathsOutsideTheWorkspaceAreRefusedAndNothingIsWrittenThere() throws Exception {
        refused(call("read_file", "../../../outside/secret.txt", null),
                "Path '../../../outside/secret.txt' leaves the workspace: '..' is not allowed");
        refused(call("read_file", "notes/../../x", null), "Path 'notes/../../x' leaves the workspace: '..' is not allowed");
        refused(call("write_file", "/tmp/escape.md", "x"), "Path '/tmp/escape.md' is absolute; use a path relative to the workspace");
        refused(call("read_file", outside.resolve("secret.txt").toString(), null),
                "Path '" + outside.resolve("secret.txt") + "' is absolute; use a path relative to the workspace");
        refused(call("list_files", "~", null), "Path '~' is absolute; use a path relative to the workspace");

        Files.createSymbolicLink(workspace.directory().resolve("link"), outside);
        assertEquals("link (symbolic link)", text(call("list_files", ".", null)), "listed, not followed");
        refused(call("read_file", "link/secret.txt", null), "Path 'link/secret.txt' leads outside the workspace (through a symbolic link)");
        refused(call("write_file", "link/new.md", "x"), "Path 'link/new.md' leads outside the workspace (through a symbolic link)");
        refused(call("list_files", "link", null), "Path 'link' leads outside the workspace (through a symbolic link)");
        Files.createSymbolicLink(workspace.directory().resolve("dangling.md"), outside.resolve("not-yet.md"));
        refused(call("write_file", "dangling.md", "x"), "Path 'dangling.md' leads outside the workspace (through a symbolic link)");
        try (var files = Files.list(outside)) {
            assertEquals(1, files.count(), "only secret.txt: nothing was written outside");
        }
        assertEquals("top secret", Files.readString(outside.resolve("secret.txt")));
    }

    @Test
    void sizeAndCountLimits() {
        refused(call("write_file", "big.txt", "x".repeat(65)), "Content of 65 bytes is over the limit of 64 bytes per file");
        call("write_file", "1.txt", "1");
        call("write_file", "2.txt", "2");
        call("write_file", "3.txt", "3");
        refused(call("write_file", "4.txt", "4"), "The workspace already holds 3 files, its limit; delete one first");
        assertFalse(call("write_file", "3.txt", "replaced").getBoolean("isError"), "replacing a file adds none");
        refused(call("write_file", "a.txt", null), "'content' (a string) is required");
        refused(call("read_file", "missing.txt", null), "File 'missing.txt' does not exist in the workspace");
    }

    @Test
    void readRefusesFilesOverTheLimit() throws Exception {
        Files.write(workspace.directory().resolve("huge.bin"), new byte[100]);
        refused(call("read_file", "huge.bin", null), "File 'huge.bin' has 100 bytes; the limit is 64");
        Files.write(workspace.directory().resolve("latin1.txt"), "caf\u00e9".getBytes(StandardCharsets.ISO_8859_1));
        refused(call("read_file", "latin1.txt", null), "File 'latin1.txt' is not UTF-8 text");
    }

    @Test
    void workspacesIdlePastTheTtlAreDeleted() throws Exception {
        Workspace old = workspaces.open("default", "alice", "old");
        Files.writeString(old.directory().resolve("f.txt"), "x");
        Files.setLastModifiedTime(old.directory(), FileTime.from(Instant.now().minus(Duration.ofHours(2))));
        Workspace bobs = workspaces.open("default", "bob", "old");
        Files.setLastModifiedTime(bobs.directory(), FileTime.from(Instant.now().minus(Duration.ofHours(2))));
        assertEquals(2, workspaces.deleteExpired(Instant.now()));
        assertFalse(Files.exists(old.directory()));
        assertFalse(Files.exists(bobs.directory().getParent()), "a user without workspaces leaves no directory");
        assertTrue(Files.exists(workspace.directory()), "used within the TTL");
        assertTrue(Files.exists(outside.resolve("secret.txt")));
    }
}
