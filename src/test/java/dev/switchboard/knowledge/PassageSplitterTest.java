package dev.switchboard.knowledge;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PassageSplitterTest {

    private final PassageSplitter splitter = new PassageSplitter(200);

    @Test
    void aShortFileIsOnePassageWithItsLineRange() {
        List<Passage> passages = splitter.split("notes.md", "\n\nfirst line\nsecond line\n\n");
        assertEquals(List.of(new Passage("notes.md", 3, 4, "first line\nsecond line")), passages);
    }

    @Test
    void aLongFileIsCutAtHeadingsAndParagraphsWithExactLineRanges() {
        String section = IntStream.range(0, 4).mapToObj(i -> "a sentence of about forty characters " + i)
                .collect(Collectors.joining("\n"));
        String content = "# One\n" + section + "\n\n" + section + "\n# Two\n" + section + "\r\n";
        List<Passage> passages = splitter.split("doc.md", content);
        String[] lines = content.replace("\r\n", "\n").split("\n", -1);
        assertTrue(passages.size() >= 3, "cut into several passages: " + passages);
        int previousEnd = 0;
        for (Passage passage : passages) {
            assertTrue(passage.text().length() <= 200, "passages stay near the target: " + passage.text().length());
            assertTrue(passage.startLine() > previousEnd, "in order, no overlap");
            String expected = String.join("\n", List.of(lines).subList(passage.startLine() - 1, passage.endLine()));
            assertEquals(expected.strip(), passage.text(), "the passage is exactly its lines");
            previousEnd = passage.endLine();
        }
        assertTrue(passages.stream().anyMatch(p -> p.text().startsWith("# Two")), "a heading starts a passage");
        assertEquals(lines.length - 1, passages.get(passages.size() - 1).endLine(), "the last line is covered");
    }

    @Test
    void anOverlongLineIsCutIntoPiecesThatKeepItsLineNumber() {
        String longLine = "x".repeat(450);
        List<Passage> passages = splitter.split("min.txt", "intro\n" + longLine + "\noutro");
        assertEquals(List.of(new Passage("min.txt", 1, 1, "intro"), new Passage("min.txt", 2, 2, "x".repeat(200)),
                new Passage("min.txt", 2, 2, "x".repeat(200)), new Passage("min.txt", 2, 2, "x".repeat(50)),
                new Passage("min.txt", 3, 3, "outro")), passages);
    }

    @Test
    void blankContentHasNoPassages() {
        assertEquals(List.of(), splitter.split("empty.txt", " \n\n\t\n"));
    }
}
