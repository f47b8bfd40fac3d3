package dev.switchboard.knowledge;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KnowledgeRetrieverTest {

    @TempDir
    Path folder;

    private KnowledgeIndex index;
    private KnowledgeRetriever retriever;

    @BeforeEach
    void open() throws IOException {
        Files.createDirectories(folder.resolve("guides"));
        for (int i = 1; i <= 5; i++) {
            Files.writeString(folder.resolve("guides/scraping-" + i + ".txt"),
                    "网页抓取第 " + i + " 条：遵守 robots.txt，控制请求间隔。");
        }
        Files.writeString(folder.resolve("docker.md"), "# Docker\n\nMulti-stage builds keep images small.\n");
        index = new KnowledgeIndex(TestSettings.defaults(folder));
        index.rebuild();
        retriever = new KnowledgeRetriever(index, tenant -> null);
    }

    @AfterEach
    void close() throws IOException {
        index.close();
    }

    @Test
    void theContextMessageCarriesAtMostThreePassagesWithTheirSourcesInTheSeedsWording() {
        String message = retriever.contextMessage("acme", "抓取网页要注意什么？").orElseThrow();
        assertTrue(message.startsWith("=== 相关上下文信息（知识库检索） ===\n查询: 抓取网页要注意什么？\n"), message);
        assertEquals(3, message.split("--- 片段 ", -1).length - 1, "the seed's three results: " + message);
        assertTrue(message.matches("(?s).*--- 片段 1 \\(相关性: 0\\.\\d\\d\\) ---\n来源: guides/scraping-\\d\\.txt 第 1-1 行\n网页抓取第 \\d 条.*"),
                message);
        assertTrue(message.endsWith("=== 上下文信息结束 ===\n请基于以上上下文信息回答用户的问题，引用时注明来源。\n"), message);
        assertTrue(!message.contains(folder.toString()), "sources are relative to the knowledge folder");

        String docker = retriever.contextMessage("acme", "How do I keep Docker images small?").orElseThrow();
        assertTrue(docker.contains("来源: docker.md 第 1-3 行\n# Docker\n\nMulti-stage builds keep images small.\n"), docker);
    }

    @Test
    void nothingIsInjectedWithoutAQuestionOrARelevantPassage() {
        assertEquals(Optional.empty(), retriever.contextMessage("acme", null));
        assertEquals(Optional.empty(), retriever.contextMessage("acme", "  \n"));
        assertEquals(Optional.empty(), retriever.contextMessage("acme", "kubernetes helm chart values"));
    }

    @Test
    void aHugeQuestionIsSearchedByItsBeginning() {
        String manyWords = IntStream.range(0, 5000).mapToObj(KnowledgeRetrieverTest::letters).collect(Collectors.joining(" "));
        assertTrue(retriever.search("acme", "docker " + manyWords, 3, 0).size() >= 1, "thousands of terms stay under Lucene's clause limit");
        assertTrue(retriever.search("acme", manyWords + " docker", 3, 0).isEmpty(), "only the first "
                + KnowledgeRetriever.MAX_QUESTION_CHARS + " characters are searched");
        String echoed = retriever.contextMessage("acme", "docker images small " + "and ".repeat(3000)).orElseThrow();
        assertTrue(echoed.length() < 1000, "the question is echoed shortened: " + echoed.length());
    }

    /** A distinct word of letters only (digits would match the files' numbers). */
    private static String letters(int n) {
        StringBuilder word = new StringBuilder("q");
        for (char c : Integer.toString(n, 10).toCharArray()) {
            word.append((char) ('j' + c - '0'));
        }
        return word.toString();
    }

    @Test
    void searchRefusesNonsense() {
        assertThrows(IllegalArgumentException.class, () -> retriever.search("acme", " ", 3, 0.1));
        assertThrows(IllegalArgumentException.class, () -> retriever.search("acme", "docker", 0, 0.1));
        assertThrows(IllegalArgumentException.class, () -> retriever.search("acme", "docker", 3, 1.5));
        assertThrows(IllegalArgumentException.class, () -> retriever.search("acme", "docker", 3, Double.NaN));
    }

    @Test
    void aTenantSearchesTheFolderAndItsOwnDocumentsOnly() throws IOException {
        try (PassageIndex acme = new PassageIndex(); PassageIndex globex = new PassageIndex()) {
            acme.replaceAll(new PassageSplitter(800).split("runbook.pdf", "Rotate the quokka signing keys every Monday.\n")
                    .stream().map(p -> p.of(41)).toList());
            globex.replaceAll(new PassageSplitter(800).split("secret.docx", "Globex rotates its quokka keys on Fridays.\n")
                    .stream().map(p -> p.of(42)).toList());
            KnowledgeRetriever tenants = new KnowledgeRetriever(index, Map.of("acme", acme, "globex", globex)::get);

            List<KnowledgeHit> hits = tenants.search("acme", "When are the quokka signing keys rotated?", 3, 0.1);
            assertEquals(List.of("runbook.pdf"), hits.stream().map(KnowledgeHit::source).toList(), hits.toString());
            assertEquals(41L, hits.get(0).documentId());
            assertTrue(tenants.contextMessage("acme", "When are the quokka keys rotated?").orElseThrow()
                    .contains("来源: runbook.pdf 第 1-1 行\nRotate the quokka signing keys every Monday."));
            assertTrue(tenants.search("initech", "quokka keys rotated", 3, 0).isEmpty(), "a tenant without documents sees none");
            assertEquals(List.of("secret.docx"), tenants.search("globex", "quokka keys", 3, 0.1).stream()
                    .map(KnowledgeHit::source).toList());
            // the folder's files and the tenant's documents are ranked together, on one scale
            List<KnowledgeHit> both = tenants.search("acme", "docker images quokka keys", 5, 0);
            assertEquals(Set.of("runbook.pdf", "docker.md"), both.stream().map(KnowledgeHit::source).collect(Collectors.toSet()));
            assertTrue(both.stream().allMatch(h -> h.score() > 0 && h.score() < 1), both.toString());
            assertTrue(both.stream().filter(h -> h.source().equals("docker.md")).allMatch(h -> h.documentId() == null));
        }
    }
}
