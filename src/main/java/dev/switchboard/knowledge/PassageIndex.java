package dev.switchboard.knowledge;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.MultiReader;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.ByteBuffersDirectory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Passages in an in-memory Lucene index, ranked with BM25 ({@link KnowledgeAnalyzer}, {@link KnowledgeSimilarity},
 * {@link KnowledgeQuery}), replaced whole at each change: a knowledge base is small, and a full rebuild cannot drift
 * from its source the way incremental updates can. Searches run on the last committed build through a
 * {@link SearcherManager}, so they never wait for a rebuild and a build's reader is closed only once no search holds
 * it. Rebuilds are serialised.
 * <p>
 * {@link #search} can search several indexes as one (the knowledge folder's and a tenant's documents): their readers
 * are joined in a {@link MultiReader}, so term statistics, and with them BM25 and the normalised scores, are those of
 * the joined passages.
 */
final class PassageIndex implements AutoCloseable {

    private static final String SOURCE = "source";
    private static final String DOCUMENT = "document";
    private static final String START = "start";
    private static final String END = "end";
    private static final String TEXT = "text";

    private final KnowledgeAnalyzer analyzer = new KnowledgeAnalyzer();
    private final KnowledgeSimilarity similarity = new KnowledgeSimilarity();
    private final IndexWriter writer;
    private final SearcherManager searchers;

    PassageIndex() {
        try {
            IndexWriterConfig config = new IndexWriterConfig(analyzer).setSimilarity(similarity);
            writer = new IndexWriter(new ByteBuffersDirectory(), config);
            writer.commit();
            searchers = new SearcherManager(writer, new SearcherFactory() {
                @Override
                public IndexSearcher newSearcher(IndexReader reader, IndexReader previous) {
                    return searcher(reader, similarity);
                }
            });
        } catch (IOException e) {
            throw new IllegalStateException("cannot open an in-memory index", e);
        }
    }

    /** Replaces every passage with these; searches see the new ones once this returns. */
    synchronized void replaceAll(List<Passage> passages) throws IOException {
        writer.deleteAll();
        for (Passage passage : passages) {
            writer.addDocument(document(passage));
        }
        writer.commit();
        searchers.maybeRefreshBlocking();
    }

    /** The path goes into the identifier field too, so a question naming a file ("mcp_tools") finds it. */
    private static Document document(Passage passage) {
        Document doc = new Document();
        doc.add(new StringField(SOURCE, passage.source(), Field.Store.YES));
        if (passage.documentId() != null) {
            doc.add(new StoredField(DOCUMENT, passage.documentId()));
        }
        doc.add(new StoredField(START, passage.startLine()));
        doc.add(new StoredField(END, passage.endLine()));
        doc.add(new StoredField(TEXT, passage.text()));
        doc.add(new TextField(KnowledgeAnalyzer.WORDS, passage.text(), Field.Store.NO));
        doc.add(new TextField(KnowledgeAnalyzer.PARTS, passage.source() + "\n" + passage.text(), Field.Store.NO));
        return doc;
    }

    /**
     * The passages of these indexes that match the question best, best first, with scores normalised to [0, 1] (see
     * {@link KnowledgeQuery}); at most {@code limit}, none below {@code minScore}.
     */
    static List<KnowledgeHit> search(List<PassageIndex> indexes, String question, int limit, double minScore)
            throws IOException {
        List<IndexSearcher> acquired = new ArrayList<>();
        MultiReader joined = null;
        try {
            for (PassageIndex index : indexes) {
                acquired.add(index.searchers.acquire());
            }
            IndexSearcher searcher;
            if (acquired.size() == 1) {
                searcher = acquired.get(0);
            } else {
                // closeSubReaders false: the MultiReader takes a reference on each build's reader and gives it back
                joined = new MultiReader(acquired.stream().map(IndexSearcher::getIndexReader).toArray(IndexReader[]::new), false);
                searcher = searcher(joined, indexes.get(0).similarity);
            }
            return hits(searcher, indexes.get(0), question, limit, minScore);
        } finally {
            if (joined != null) {
                joined.close();
            }
            for (int i = 0; i < acquired.size(); i++) {
                indexes.get(i).searchers.release(acquired.get(i));
            }
        }
    }

    private static List<KnowledgeHit> hits(IndexSearcher searcher, PassageIndex analysis, String question, int limit,
                                           double minScore) throws IOException {
        KnowledgeQuery query = KnowledgeQuery.of(question, analysis.analyzer, searcher, analysis.similarity);
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
            IndexableField document = doc.getField(DOCUMENT);
            hits.add(new KnowledgeHit(doc.get(SOURCE), doc.getField(START).numericValue().intValue(),
                    doc.getField(END).numericValue().intValue(), score, doc.get(TEXT),
                    document == null ? null : document.numericValue().longValue()));
        }
        return hits;
    }

    private static IndexSearcher searcher(IndexReader reader, KnowledgeSimilarity similarity) {
        IndexSearcher searcher = new IndexSearcher(reader);
        searcher.setSimilarity(similarity);
        return searcher;
    }

    @Override
    public synchronized void close() throws IOException {
        searchers.close();
        writer.close();
        analyzer.close();
    }
}
