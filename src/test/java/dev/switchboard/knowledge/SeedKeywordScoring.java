package dev.switchboard.knowledge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Seed 002's "plain keyword scoring", the baseline of the evaluation: whole files, scored as the seed describes
 * ("相关性评分算法"): {@code finalScore = baseScore * 0.7 + freqScore * 0.3} where baseScore is the number of matched
 * query words over the number of query words and freqScore the frequency of the matched words in the document,
 * keeping files scoring at least MinScore, best first. Where the seed's text is silent its own project
 * ({@code rag.go}) decides: words are lower-cased runs of letters and digits (so a Chinese sentence without spaces
 * is one word), query words are counted with repetitions, and freqScore is the occurrences of query words over all
 * words of the document.
 */
final class SeedKeywordScoring {

    record Scored(String source, double score) {
    }

    private final Map<String, String> documents = new HashMap<>();
    private final Function<String, List<String>> tokenizer;

    /** The seed as it is. */
    SeedKeywordScoring(Path folder) {
        this(folder, SeedKeywordScoring::words);
    }

    /** The seed's formula over other words (to tell the analyzer's share of the gain from BM25's). */
    SeedKeywordScoring(Path folder, Function<String, List<String>> tokenizer) {
        this.tokenizer = tokenizer;
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".txt") || name.endsWith(".md") || name.endsWith(".go")) {
                    documents.put(folder.relativize(file).toString().replace('\\', '/'),
                            Files.readString(file, StandardCharsets.UTF_8));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Files scoring at least {@code minScore}, best first (the seed then keeps the first MaxResults). */
    List<Scored> rank(String query, double minScore) {
        List<String> queryWords = tokenizer.apply(query);
        Set<String> querySet = new HashSet<>(queryWords);
        List<Scored> scored = new ArrayList<>();
        for (Map.Entry<String, String> doc : documents.entrySet()) {
            double score = score(queryWords, querySet, tokenizer.apply(doc.getValue()));
            if (score >= minScore) {
                scored.add(new Scored(doc.getKey(), score));
            }
        }
        scored.sort(Comparator.comparingDouble(Scored::score).reversed().thenComparing(Scored::source));
        return scored;
    }

    static double score(List<String> queryWords, Set<String> querySet, List<String> contentWords) {
        if (queryWords.isEmpty()) {
            return 0;
        }
        Map<String, Integer> counts = new HashMap<>();
        for (String word : contentWords) {
            counts.merge(word, 1, Integer::sum);
        }
        long matched = queryWords.stream().filter(counts::containsKey).count();
        double baseScore = (double) matched / queryWords.size();
        double freqScore = 0;
        for (String word : querySet) {
            freqScore += counts.getOrDefault(word, 0);
        }
        if (!contentWords.isEmpty()) {
            freqScore /= contentWords.size();
        }
        return baseScore * 0.7 + freqScore * 0.3;
    }

    static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        text.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c)) {
                current.appendCodePoint(c);
            } else if (current.length() > 0) {
                words.add(current.toString());
                current.setLength(0);
            }
        });
        if (current.length() > 0) {
            words.add(current.toString());
        }
        return words;
    }
}
