package dev.switchboard.knowledge;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * What the knowledge base indexes and how.
 *
 * @param folder          the knowledge folder (the RAG feature's {@code knowledge_base}); may not exist yet
 * @param extensions      file name endings indexed, lower case with the dot ({@code .txt}, {@code .md}, {@code .go})
 * @param maxFileBytes    larger files are skipped (and logged): one huge file would crowd out everything else
 * @param passageChars    target size of a passage, the unit that is ranked and injected
 * @param refreshInterval how often the folder's modification times are compared with the index
 */
public record KnowledgeSettings(Path folder, List<String> extensions, long maxFileBytes, int passageChars,
                                Duration refreshInterval) {

    public static final List<String> DEFAULT_EXTENSIONS = List.of(".txt", ".md", ".go");

    public KnowledgeSettings {
        if (maxFileBytes < 1) {
            throw new IllegalArgumentException("max file size must be positive");
        }
        if (passageChars < 100) {
            throw new IllegalArgumentException("passages must be at least 100 characters");
        }
        if (refreshInterval.isNegative() || refreshInterval.isZero()) {
            throw new IllegalArgumentException("refresh interval must be positive");
        }
        extensions = extensions.stream().map(String::trim).filter(e -> !e.isEmpty())
                .map(e -> (e.startsWith(".") ? e : "." + e).toLowerCase(Locale.ROOT)).distinct().toList();
    }

    boolean indexes(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        return extensions.stream().anyMatch(lower::endsWith);
    }
}
