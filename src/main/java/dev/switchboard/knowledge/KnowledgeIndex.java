package dev.switchboard.knowledge;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.ByteBuffersDirectory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The knowledge folder as an in-memory Lucene index of passages, ranked with BM25 ({@link KnowledgeAnalyzer},
 * {@link KnowledgeQuery}).
 * <p>
 * The whole index is rebuilt whenever a {@link FolderScan} differs from the one it was built from: knowledge folders
 * are small, and a full rebuild cannot drift from the folder the way incremental updates can. Searches run on the
 * last committed build through a {@link SearcherManager}, so they never wait for a rebuild and a build's reader is
 * closed only once no search holds it. Builds are serialised.
 */
public final class KnowledgeIndex implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(KnowledgeIndex.class.getName());
    private static final String SOURCE = "source";
    private static final String START = "start";
    private static final String END = "end";
    private static final String TEXT = "text";

    private final KnowledgeSettings settings;
    private final KnowledgeAnalyzer analyzer = new KnowledgeAnalyzer();
    private final KnowledgeSimilarity similarity = new KnowledgeSimilarity();
    private final PassageSplitter splitter;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    private FolderScan indexed;
    private volatile IndexStats stats = IndexStats.EMPTY;

    public KnowledgeIndex(KnowledgeSettings settings) {
        this.settings = settings;
        this.splitter = new PassageSplitter(settings.passageChars());
        try {
            IndexWriterConfig config = new IndexWriterConfig(analyzer).setSimilarity(similarity);
            writer = new IndexWriter(new ByteBuffersDirectory(), config);
            writer.commit();
            searchers = new SearcherManager(writer, new SearcherFactory() {
                @Override
                public IndexSearcher newSearcher(IndexReader reader, IndexReader previous) {
                    IndexSearcher searcher = new IndexSearcher(reader);
                    searcher.setSimilarity(similarity);
                    return searcher;
                }
            });
        } catch (IOException e) {
            throw new IllegalStateException("cannot open an in-memory index", e);
        }
    }

    public KnowledgeSettings settings() {
        return settings;
    }

    public IndexStats stats() {
        return stats;
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
        int passages = 0;
        int skipped = 0;
        writer.deleteAll();
        for (FolderScan.FileStamp file : scan.files()) {
            List<Passage> parts = read(file);
            if (parts == null) {
                skipped++;
                continue;
            }
            for (Passage passage : parts) {
                writer.addDocument(document(passage));
            }
            files++;
            passages += parts.size();
        }
        writer.commit();
        searchers.maybeRefreshBlocking();
        indexed = scan;
        IndexStats built = new IndexStats(files, passages, skipped, (System.nanoTime() - started) / 1_000_000);
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

    /** The path goes into the identifier field too, so a question naming a file ("mcp_tools") finds it. */
    private static Document document(Passage passage) {
        Document doc = new Document();
        doc.add(new StringField(SOURCE, passage.source(), Field.Store.YES));
        doc.add(new StoredField(START, passage.startLine()));
        doc.add(new StoredField(END, passage.endLine()));
        doc.add(new StoredField(TEXT, passage.text()));
        doc.add(new TextField(KnowledgeAnalyzer.WORDS, passage.text(), Field.Store.NO));
        doc.add(new TextField(KnowledgeAnalyzer.PARTS, passage.source() + "\n" + passage.text(), Field.Store.NO));
        return doc;
    }

    /**
     * The passages that match the question best, best first, with scores normalised to [0, 1] (see
     * {@link KnowledgeQuery}); at most {@code limit}, none below {@code minScore}.
     */
    public List<KnowledgeHit> search(String question, int limit, double minScore) throws IOException {
        IndexSearcher searcher = searchers.acquire();
        try {
            KnowledgeQuery query = KnowledgeQuery.of(question, analyzer, searcher, similarity);
            if (query.isEmpty()) {
                return List.of();
            }
            List<KnowledgeHit> hits = new ArrayList<>();
            for (ScoreDoc scored : searcher.search(query.query(), limit).scoreDocs) {
                double score = query.normalise(scored.score);
                if (score < minScore) {
                    break;
                }
                Document doc = searcher.storedFields().document(scored.doc);
                hits.add(new KnowledgeHit(doc.get(SOURCE), doc.getField(START).numericValue().intValue(),
                        doc.getField(END).numericValue().intValue(), score, doc.get(TEXT)));
            }
            return hits;
        } finally {
            searchers.release(searcher);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        searchers.close();
        writer.close();
        analyzer.close();
    }
}
