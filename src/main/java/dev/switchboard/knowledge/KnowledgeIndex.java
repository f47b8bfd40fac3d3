package dev.switchboard.knowledge;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The knowledge folder as a {@link PassageIndex}, rebuilt whole whenever a {@link FolderScan} differs from the one it
 * was built from. Builds are serialised.
 */
public final class KnowledgeIndex implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(KnowledgeIndex.class.getName());

    private final KnowledgeSettings settings;
    private final PassageSplitter splitter;
    private final PassageIndex passages = new PassageIndex();
    private FolderScan indexed;
    private volatile IndexStats stats = IndexStats.EMPTY;

    public KnowledgeIndex(KnowledgeSettings settings) {
        this.settings = settings;
        this.splitter = new PassageSplitter(settings.passageChars());
    }

    public KnowledgeSettings settings() {
        return settings;
    }

    public IndexStats stats() {
        return stats;
    }

    PassageIndex passages() {
        return passages;
    }

    /** Rebuilds when the folder changed since the last build; returns whether it did. */
    public synchronized boolean refreshIfChanged() throws IOException {
        FolderScan scan = FolderScan.of(settings);
        if (scan.equals(indexed)) {
            return false;
        }
        build(scan);
        return true;
    }

    /** Rebuilds from the folder as it is now, changed or not. */
    public synchronized IndexStats rebuild() throws IOException {
        return build(FolderScan.of(settings));
    }

    private IndexStats build(FolderScan scan) throws IOException {
        long started = System.nanoTime();
        int files = 0;
        int skipped = 0;
        List<Passage> all = new ArrayList<>();
        for (FolderScan.FileStamp file : scan.files()) {
            List<Passage> parts = read(file);
            if (parts == null) {
                skipped++;
                continue;
            }
            all.addAll(parts);
            files++;
        }
        passages.replaceAll(all);
        indexed = scan;
        IndexStats built = new IndexStats(files, all.size(), skipped, (System.nanoTime() - started) / 1_000_000);
        stats = built;
        LOG.info(() -> "Knowledge base " + settings.folder() + ": " + built.files() + " file(s), " + built.passages()
                + " passage(s), " + built.skipped() + " skipped, built in " + built.millis() + " ms");
        return built;
    }

    /** The file's passages, or null when it is left out. */
    private List<Passage> read(FolderScan.FileStamp file) {
        if (file.size() > settings.maxFileBytes()) {
            LOG.warning(() -> "Knowledge base: " + file.source() + " skipped, " + file.size() + " bytes is more than "
                    + settings.maxFileBytes() + " (switchboard.knowledge.max-file-bytes)");
            return null;
        }
        try {
            // malformed UTF-8 becomes U+FFFD rather than failing the file
            String content = new String(Files.readAllBytes(file.path()), StandardCharsets.UTF_8);
            return splitter.split(file.source(), content);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "Knowledge base: cannot read " + file.source() + ", skipped: " + e);
            return null;
        }
    }

    /**
     * The folder's passages that match the question best, best first, with scores normalised to [0, 1] (see
     * {@link KnowledgeQuery}); at most {@code limit}, none below {@code minScore}.
     */
    public List<KnowledgeHit> search(String question, int limit, double minScore) throws IOException {
        return PassageIndex.search(List.of(passages), question, limit, minScore);
    }

    @Override
    public synchronized void close() throws IOException {
        passages.close();
    }
}
