package dev.switchboard.knowledge;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The knowledge base's settings from MicroProfile Config. */
@ApplicationScoped
public class KnowledgeConfiguration {

    @Inject
    @ConfigProperty(name = "switchboard.data-dir", defaultValue = "data")
    String dataDir;

    /** Absent: {@code <data dir>/knowledge}, next to the other files the server owns. */
    @Inject
    @ConfigProperty(name = "switchboard.knowledge.dir")
    Optional<String> folder;

    @Inject
    @ConfigProperty(name = "switchboard.knowledge.extensions", defaultValue = ".txt,.md,.go")
    List<String> extensions;

    @Inject
    @ConfigProperty(name = "switchboard.knowledge.max-file-bytes", defaultValue = "1048576")
    long maxFileBytes;

    @Inject
    @ConfigProperty(name = "switchboard.knowledge.passage-chars", defaultValue = "800")
    int passageChars;

    @Inject
    @ConfigProperty(name = "switchboard.knowledge.refresh-interval", defaultValue = "PT10S")
    Duration refreshInterval;

    /** 10 MiB: office documents and PDFs of manuals; stored in the database in chunks of 1 MiB. */
    @Inject
    @ConfigProperty(name = "switchboard.knowledge.documents.max-bytes", defaultValue = "10485760")
    long documentMaxBytes;

    /** About 500 pages of prose; a larger text is refused rather than cut, so no part of a document goes missing unseen. */
    @Inject
    @ConfigProperty(name = "switchboard.knowledge.documents.max-text-chars", defaultValue = "1000000")
    int documentMaxTextChars;

    @Inject
    @ConfigProperty(name = "switchboard.knowledge.documents.extraction-timeout", defaultValue = "PT30S")
    Duration extractionTimeout;

    @Inject
    @ConfigProperty(name = "switchboard.knowledge.documents.extraction-threads", defaultValue = "2")
    int extractionThreads;

    public DocumentSettings documents() {
        return new DocumentSettings(documentMaxBytes, documentMaxTextChars, extractionTimeout, extractionThreads);
    }

    public KnowledgeSettings settings() {
        Path dir = folder.filter(f -> !f.isBlank()).map(Path::of).orElseGet(() -> Path.of(dataDir, "knowledge"));
        return new KnowledgeSettings(dir.toAbsolutePath().normalize(), extensions, maxFileBytes, passageChars,
                refreshInterval);
    }
}
