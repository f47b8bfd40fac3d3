package dev.switchboard.docs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MarkdownLinksTest {

    @TempDir
    Path root;

    @Test
    void anchorsFollowGitHubsRules() {
        assertEquals("mcpserversname", MarkdownLinks.slug("`/mcp/servers/{name}`"));
        assertEquals("legacy-httpsse", MarkdownLinks.slug("Legacy HTTP+SSE"));
        assertEquals("nl-sql", MarkdownLinks.slug("NL->SQL"));
        assertEquals("approvals-seed-004", MarkdownLinks.slug("Approvals (seed 004)"));
        assertEquals("backend__tool-names", MarkdownLinks.slug("`backend__tool` names"));
        assertEquals("the-docs", MarkdownLinks.slug("The [docs](docs/x.md)"));
        assertEquals("bold-and-code", MarkdownLinks.slug("**Bold** and *code*"));
        assertEquals("查询对话", MarkdownLinks.slug("查询：对话"));
        assertEquals(List.of("a", "a-1", "a-2", "b", "here"),
                List.copyOf(MarkdownLinks.anchors("# A\n## A\n### A\n```\n# not a heading\n```\n## B ##\n<a id=\"here\"></a>\n")));
    }

    @Test
    void aLinkToAMissingFileIsBrokenWithItsLine() throws IOException {
        Path readme = write("README.md", "# Title\n\nSee [the guide](docs/guide.md) and [site](https://example.com/x).\n");

        List<MarkdownLinks.Broken> broken = new MarkdownLinks(root).brokenLinks(readme);

        assertEquals(1, broken.size());
        assertEquals("README.md:3: link 'docs/guide.md': no such file docs/guide.md", broken.get(0).toString());
    }

    @Test
    void aLinkToAMissingAnchorIsBrokenAndAnExistingOneIsNot() throws IOException {
        write("docs/guide.md", "# Guide\n\n## Getting started\n\n## Getting started\n");
        Path readme = write("README.md", "[ok](docs/guide.md#getting-started-1)\n[second\nline](docs/guide.md#nope)\n"
                + "[self](#top)\n# Top\n");

        List<MarkdownLinks.Broken> broken = new MarkdownLinks(root).brokenLinks(readme);

        assertEquals(1, broken.size(), broken.toString());
        assertEquals("README.md:2: link 'docs/guide.md#nope': no heading of docs/guide.md has the anchor '#nope'",
                broken.get(0).toString());
    }

    @Test
    void linksInCodeAreNotLinksButReferenceDefinitionsAre() throws IOException {
        Path readme = write("README.md", "`[x](missing-1.md)`\n\n```\n[y](missing-2.md)\n```\n\n[z]: missing-3.md\n");

        List<MarkdownLinks.Broken> broken = new MarkdownLinks(root).brokenLinks(readme);

        assertEquals(1, broken.size(), broken.toString());
        assertTrue(broken.get(0).toString().startsWith("README.md:7: link 'missing-3.md'"), broken.toString());
    }

    @Test
    void relativeLinksResolveFromTheirFileAndRootLinksFromTheRepository() throws IOException {
        write("bench/run.sh", "#!/bin/sh\n");
        Path doc = write("docs/a.md", "[run](../bench/run.sh) [root](/bench/run.sh) [up](../../outside.md)\n");

        List<MarkdownLinks.Broken> broken = new MarkdownLinks(root).brokenLinks(doc);

        assertEquals(1, broken.size(), broken.toString());
        assertTrue(broken.get(0).reason().startsWith("leads outside the repository"), broken.toString());
    }

    private Path write(String name, String text) throws IOException {
        Path file = root.resolve(name);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }
}
