package dev.switchboard.backend.tools;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ToolNamesTest {

    @Test
    void plainNamesFollowTheSeedFormat() {
        assertEquals("mcp__everything__echo", ToolNames.displayName("everything", "echo"));
        assertEquals("mcp__my-server__get_tiny_image", ToolNames.displayName("my-server", "get_tiny_image"));
    }

    @Test
    void charactersOutsideTheAllowedSetBecomeUnderscores() {
        assertEquals("mcp__file_server__read_file", ToolNames.displayName("file server", "read.file"));
        assertEquals("mcp______search", ToolNames.displayName("文件", "search"));
    }

    @Test
    void longNamesAreCutTo63WithAStableHash() {
        String server = "a-really-long-server-name-for-the-documents-department";
        String tool = "search_every_document_in_the_archive";
        String name = ToolNames.displayName(server, tool);
        assertEquals(63, name.length());
        assertTrue(name.matches("[A-Za-z0-9_-]+"), name);
        assertEquals(name, ToolNames.displayName(server, tool), "stable across calls");
        assertNotEquals(name, ToolNames.displayName(server, tool + "2"), "names that share a long prefix stay apart");
        assertEquals(name.substring(0, 54), ToolNames.displayName(server, tool + "2").substring(0, 54));
    }

    @Test
    void exactly63IsNotCut() {
        String tool = "t".repeat(63 - "mcp__s__".length());
        assertEquals("mcp__s__" + tool, ToolNames.displayName("s", tool));
    }

    @Test
    void disambiguatedNamesDifferByDiscriminator() {
        String a = ToolNames.disambiguated("a b", "echo", "1\0echo");
        String b = ToolNames.disambiguated("a b", "echo", "2\0echo");
        assertNotEquals(a, b);
        assertTrue(a.startsWith("mcp__a_b__echo_"), a);
        assertTrue(a.length() <= 63);
    }
}
