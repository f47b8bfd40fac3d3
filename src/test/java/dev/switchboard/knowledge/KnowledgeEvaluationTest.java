package dev.switchboard.knowledge;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * BM25 with {@link KnowledgeAnalyzer} against seed 002's keyword scoring ({@link SeedKeywordScoring}) on the labelled
 * set in {@code src/test/resources/knowledge} (Chinese and English documents, Go files, questions with their
 * relevant files). Both run as deployed: minimum score 0.1; recall@3 is what the seed's 3 injected results contain,
 * MRR looks at the first relevant file among the first 10. Passages are counted as their file (its best passage).
 */
class KnowledgeEvaluationTest {

    private static final int DEPTH = 10;
    private static Path corpus;
    private static KnowledgeIndex index;
    private static List<Labelled> queries;

    record Labelled(String question, Set<String> relevant) {
    }

    record Figures(double mrr, double recallAt3) {

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "MRR@%d %.3f, recall@3 %.3f", DEPTH, mrr, recallAt3);
        }
    }

    @BeforeAll
    static void load() throws IOException, URISyntaxException {
        Path root = Path.of(KnowledgeEvaluationTest.class.getResource("/knowledge/queries.tsv").toURI()).getParent();
        corpus = root.resolve("corpus");
        queries = new ArrayList<>();
        for (String line : Files.readAllLines(root.resolve("queries.tsv"), StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\t");
            queries.add(new Labelled(parts[0], Set.of(parts[1].split(","))));
        }
        index = new KnowledgeIndex(TestSettings.defaults(corpus));
        index.rebuild();
    }

    @AfterAll
    static void close() throws IOException {
        index.close();
    }

    @Test
    void labelledSetIsWhatTheBriefAsksFor() throws IOException {
        assertTrue(queries.size() >= 20, "about 20 labelled questions");
        try (var files = Files.walk(corpus)) {
            List<Path> docs = files.filter(Files::isRegularFile).toList();
            assertTrue(docs.size() >= 15 && docs.size() <= 25, "15-25 documents");
            assertTrue(docs.stream().anyMatch(p -> p.toString().endsWith(".go")), "Go files among them");
            for (Labelled query : queries) {
                for (String relevant : query.relevant()) {
                    assertTrue(Files.isRegularFile(corpus.resolve(relevant)), "labelled file exists: " + relevant);
                }
            }
        }
        assertEquals(22, index.stats().files());
    }

    @Test
    void bm25WithTheAnalyzerBeatsTheSeedsKeywordScoring() {
        SeedKeywordScoring seed = new SeedKeywordScoring(corpus);
        Figures baseline = evaluate(q -> seed.rank(q, KnowledgeRetriever.DEFAULT_MIN_SCORE).stream()
                .map(SeedKeywordScoring.Scored::source).toList());
        SeedKeywordScoring seedOverWords = new SeedKeywordScoring(corpus, text -> analyzed(KnowledgeAnalyzer.WORDS, text));
        Figures ablation = evaluate(q -> seedOverWords.rank(q, KnowledgeRetriever.DEFAULT_MIN_SCORE).stream()
                .map(SeedKeywordScoring.Scored::source).toList());
        Figures ours = evaluate(KnowledgeEvaluationTest::rankFiles);
        System.out.println("Knowledge evaluation over " + queries.size() + " questions: seed keyword scoring " + baseline
                + "; seed scoring over smartcn words " + ablation + "; BM25 + analyzer " + ours);
        assertTrue(ours.mrr() > baseline.mrr(), () -> "MRR: ours " + ours + " vs seed " + baseline);
        assertTrue(ours.recallAt3() > baseline.recallAt3(), () -> "recall@3: ours " + ours + " vs seed " + baseline);
    }

    private static List<String> analyzed(String field, String text) {
        try (KnowledgeAnalyzer analyzer = new KnowledgeAnalyzer()) {
            List<String> terms = new ArrayList<>();
            try (var stream = analyzer.tokenStream(field, text)) {
                var term = stream.addAttribute(org.apache.lucene.analysis.tokenattributes.CharTermAttribute.class);
                stream.reset();
                while (stream.incrementToken()) {
                    terms.add(term.toString());
                }
                stream.end();
            }
            return terms;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Files in the order of their best passage. */
    private static List<String> rankFiles(String question) {
        try {
            Set<String> files = new LinkedHashSet<>();
            for (KnowledgeHit hit : index.search(question, DEPTH * 5, KnowledgeRetriever.DEFAULT_MIN_SCORE)) {
                files.add(hit.source());
            }
            return List.copyOf(files);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static Figures evaluate(Function<String, List<String>> ranker) {
        double reciprocalRanks = 0;
        double recall = 0;
        for (Labelled query : queries) {
            List<String> ranked = ranker.apply(query.question());
            for (int i = 0; i < Math.min(DEPTH, ranked.size()); i++) {
                if (query.relevant().contains(ranked.get(i))) {
                    reciprocalRanks += 1.0 / (i + 1);
                    break;
                }
            }
            long found = ranked.stream().limit(3).filter(query.relevant()::contains).count();
            recall += (double) found / query.relevant().size();
            if (Boolean.getBoolean("knowledge.eval.verbose")) {
                System.out.println(query.question() + " -> " + ranked.stream().limit(3).toList()
                        + " want " + Arrays.toString(query.relevant().toArray()));
            }
        }
        return new Figures(reciprocalRanks / queries.size(), recall / queries.size());
    }
}
