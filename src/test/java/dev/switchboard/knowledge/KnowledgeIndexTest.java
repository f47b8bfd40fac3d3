package dev.switchboard.knowledge;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KnowledgeIndexTest {

    @TempDir
    Path folder;

    private KnowledgeIndex index;

    @AfterEach
    void close() throws IOException {
        if (index != null) {
            index.close();
        }
    }

    private KnowledgeIndex open(long maxFileBytes) {
        index = new KnowledgeIndex(new KnowledgeSettings(folder, KnowledgeSettings.DEFAULT_EXTENSIONS, maxFileBytes, 300,
                Duration.ofSeconds(10)));
        return index;
    }

    private void write(String name, String content) throws IOException {
        Path file = folder.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }

    @Test
    void indexesOnlyTheConfiguredExtensionsSkippingHiddenLinkedAndOversizedFiles() throws IOException {
        write("guide.md", "网页抓取需要遵守 robots.txt 的规则");
        write("sub/notes.TXT", "notes about robots");
        write("code/client.go", "func CallTool() {}");
        write("Other.java", "class Other { /* robots */ }");
        write(".git/config.txt", "robots");
        write(".hidden.md", "robots");
        write("big.md", "robots " + "x".repeat(2000));
        Files.createSymbolicLink(folder.resolve("link.md"), folder.resolve("guide.md"));
        List<String> logged = captureLog(() -> open(1000).rebuild());

        IndexStats stats = index.stats();
        assertEquals(3, stats.files());
        assertEquals(1, stats.skipped());
        assertTrue(logged.stream().anyMatch(l -> l.contains("big.md skipped") && l.contains("max-file-bytes")), logged.toString());
        List<String> sources = index.search("robots", 10, 0).stream().map(KnowledgeHit::source).toList();
        assertEquals(List.of("guide.md", "sub/notes.TXT").stream().sorted().toList(), sources.stream().sorted().toList());
    }

    @Test
    void aLongFileMatchesInItsRelevantPassageWithItsLines() throws IOException {
        String filler = IntStream.range(0, 40).mapToObj(i -> "Routine operations text number " + i + " about nothing special.")
                .collect(Collectors.joining("\n"));
        write("handbook.md", "# Handbook\n" + filler + "\n\n## Certificates\nRenew the TLS certificate with certbot renew.\n\n" + filler);
        open(100_000).rebuild();
        KnowledgeHit hit = index.search("how to renew a TLS certificate", 3, 0.1).get(0);
        assertEquals("handbook.md", hit.source());
        assertTrue(hit.text().contains("certbot renew"));
        assertTrue(hit.startLine() <= 44 && hit.endLine() >= 44 && hit.endLine() - hit.startLine() < 10,
                "the passage around line 44: " + hit);
    }

    @Test
    void chineseQuestionsAndSplitIdentifiersFindTheirDocuments() throws IOException {
        write("scraping.txt", "网页抓取最佳实践：遵守 robots.txt，两次请求之间保持合理的间隔。");
        write("summary.txt", "内容摘要生成指南：提取关键事实，删除重复的描述。");
        write("client.go", "package main\n\n// CallTool invokes one tool by name.\nfunc (m *MCPClient) CallTool(name string) {}\n");
        open(100_000).rebuild();
        assertEquals("scraping.txt", index.search("抓取网页时请求间隔多长合适？", 3, 0.1).get(0).source());
        assertEquals("summary.txt", index.search("怎么写摘要", 3, 0.1).get(0).source());
        assertEquals("client.go", index.search("how do I call a tool", 3, 0.1).get(0).source());
    }

    @Test
    void scoresAreNormalisedSoTheMinimumMeansSomething() throws IOException {
        write("bm25.md", "BM25 saturates term frequency and normalises by length.");
        write("docker.md", "Docker multi-stage builds make small images.");
        write("repeat.md", "saturation ".repeat(200));
        write("filler.md", "what is it for, and how would I do it?");
        open(100_000).rebuild();

        List<KnowledgeHit> all = index.search("BM25 term frequency saturation", 10, 0);
        assertTrue(all.stream().allMatch(h -> h.score() >= 0 && h.score() < 1), all.toString());
        assertEquals("bm25.md", all.get(0).source(), "the passage that covers most of the question ranks first");
        assertTrue(all.get(0).score() > 0.3, "covering most of the question scores high: " + all.get(0).score());
        assertTrue(index.search("kubernetes helm chart values", 3, 0.1).isEmpty(),
                "a question the knowledge base knows nothing about gets nothing at the seed's 0.1");
        assertTrue(index.search("What is it for?", 3, 0).isEmpty(),
                "the words questions are made of match nothing, even where they are rare");
        assertTrue(index.search("。？！", 3, 0).isEmpty(), "no terms, no hits");
    }

    @Test
    void changesToTheFolderAreNoticedAndOnlyThenRebuilt() throws IOException {
        open(100).refreshIfChanged();
        assertEquals(0, index.stats().files(), "a missing folder is an empty knowledge base");
        write("a.md", "alpha topic");
        assertTrue(index.refreshIfChanged(), "a new file");
        assertFalse(index.refreshIfChanged(), "nothing changed");
        assertEquals(1, index.search("alpha", 3, 0.1).size());

        write("a.md", "beta topic, longer now");
        assertTrue(index.refreshIfChanged(), "a changed size");
        assertTrue(index.search("alpha", 3, 0.1).isEmpty());
        assertEquals(1, index.search("beta", 3, 0.1).size());

        Files.setLastModifiedTime(folder.resolve("a.md"), FileTime.fromMillis(0));
        assertTrue(index.refreshIfChanged(), "a touched file");

        write("big.md", "gamma ".repeat(100));
        assertTrue(index.refreshIfChanged());
        assertEquals(1, index.stats().skipped());
        write("big.md", "gamma");
        assertTrue(index.refreshIfChanged(), "a file that shrank below the limit");
        assertEquals(1, index.search("gamma", 3, 0.1).size());

        Files.delete(folder.resolve("a.md"));
        assertTrue(index.refreshIfChanged(), "a deleted file");
        assertTrue(index.search("beta", 3, 0.1).isEmpty());
        assertEquals(1, index.stats().files());
    }

    @Test
    void searchesKeepWorkingWhileTheIndexIsRebuilt() throws Exception {
        for (int i = 0; i < 20; i++) {
            write("doc" + i + ".md", "shared topic document " + i);
        }
        open(100_000).rebuild();
        Thread rebuilder = new Thread(() -> {
            try {
                for (int i = 0; i < 20; i++) {
                    index.rebuild();
                }
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
        rebuilder.start();
        while (rebuilder.isAlive()) {
            assertEquals(3, index.search("shared topic", 3, 0).size());
        }
        rebuilder.join();
    }

    private interface IoAction {
        void run() throws IOException;
    }

    private static List<String> captureLog(IoAction action) throws IOException {
        List<String> messages = new ArrayList<>();
        Logger logger = Logger.getLogger(KnowledgeIndex.class.getName());
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                messages.add(record.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
        try {
            action.run();
        } finally {
            logger.removeHandler(handler);
        }
        return messages;
    }
}
