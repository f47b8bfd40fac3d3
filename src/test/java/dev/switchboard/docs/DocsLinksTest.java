package dev.switchboard.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every relative link of the README, the docs and the benchmarks' README leads to a file and heading that exist. */
class DocsLinksTest {

    private static final Path ROOT = Path.of("").toAbsolutePath();

    @Test
    void everyRelativeLinkOfTheDocumentationLeadsSomewhere() throws IOException {
        List<Path> files = documentation();
        assertTrue(files.size() > 10, "the README, bench/README.md and docs/ should be found from " + ROOT + ": " + files);

        MarkdownLinks links = new MarkdownLinks(ROOT);
        List<MarkdownLinks.Broken> broken = new ArrayList<>();
        files.forEach(f -> broken.addAll(links.brokenLinks(f)));

        assertTrue(broken.isEmpty(), broken.size() + " broken links:\n"
                + broken.stream().map(Object::toString).collect(Collectors.joining("\n")));
    }

    private static List<Path> documentation() throws IOException {
        List<Path> files = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("bench/README.md")));
        Path docs = ROOT.resolve("docs");
        assertTrue(Files.isDirectory(docs), "no docs/ folder in " + ROOT);
        try (Stream<Path> walk = Files.walk(docs)) {
            walk.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        return files;
    }
}
