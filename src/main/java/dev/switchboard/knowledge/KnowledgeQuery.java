package dev.switchboard.knowledge;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A question turned into a BM25 query over both fields, plus the number its scores are divided by.
 * <p>
 * <b>Normalisation.</b> Raw BM25 is unbounded and depends on the corpus, so a fixed threshold like the RAG feature's 0.1
 * would mean nothing. Dividing by the best hit (the usual trick) is worse: the best passage always scores 1, even
 * for a question the knowledge base knows nothing about. Here a score is divided by the query's <i>ceiling</i>,
 * the sum of each distinct query term's {@code idf} (the most any passage could get from that term), including the
 * question's words that no passage contains, each counted like the rarest word the index has (docFreq 1). So a
 * question about something the knowledge base lacks scores low everywhere. Missing terms count only in the words
 * field: there they are real words of the question, while the other field's bigrams across two words and
 * identifier fragments are mostly noise that would drown every score. A score is thus the IDF-weighted share of
 * the question a passage covers, damped by BM25's term-frequency saturation and length norm: always in [0, 1),
 * about 0.45 for a passage of average length that contains every query term once, and near 0 for a passage that
 * shares only common words. That is the RAG feature's own "matched query words / all query words" idea with rare words
 * counting more, and 0.1 keeps its meaning: a passage must cover a real part of the question.
 * <p>
 * The question is not parsed as query syntax (users type {@code ?}, {@code :} and quotes), and distinct terms are
 * capped so a long question cannot exceed Lucene's clause limit.
 */
final class KnowledgeQuery {

    static final int MAX_TERMS_PER_FIELD = 256;
    private static final List<String> FIELDS = List.of(KnowledgeAnalyzer.WORDS, KnowledgeAnalyzer.PARTS);

    private final Query query;
    private final double ceiling;

    private KnowledgeQuery(Query query, double ceiling) {
        this.query = query;
        this.ceiling = ceiling;
    }

    static KnowledgeQuery of(String question, Analyzer analyzer, IndexSearcher searcher, KnowledgeSimilarity similarity)
            throws IOException {
        BooleanQuery.Builder builder = new BooleanQuery.Builder();
        double ceiling = 0;
        for (String field : FIELDS) {
            CollectionStatistics stats = searcher.collectionStatistics(field);
            long docCount = stats == null ? 0 : stats.docCount();
            for (String text : terms(analyzer, field, question)) {
                Term term = new Term(field, text);
                int docFreq = searcher.getIndexReader().docFreq(term);
                if (docFreq > 0 || KnowledgeAnalyzer.WORDS.equals(field)) {
                    builder.add(new TermQuery(term), BooleanClause.Occur.SHOULD);
                    ceiling += similarity.ceiling(Math.max(docFreq, 1), Math.max(docCount, 1));
                }
            }
        }
        return new KnowledgeQuery(builder.build(), ceiling);
    }

    Query query() {
        return query;
    }

    /** A raw BM25 score as a share of the ceiling; 0 when the question had no terms at all. */
    double normalise(float score) {
        return ceiling <= 0 ? 0 : Math.min(1.0, score / ceiling);
    }

    boolean isEmpty() {
        return ceiling <= 0;
    }

    private static Set<String> terms(Analyzer analyzer, String field, String question) {
        Set<String> terms = new LinkedHashSet<>();
        try (TokenStream stream = analyzer.tokenStream(field, question)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken() && terms.size() < MAX_TERMS_PER_FIELD) {
                terms.add(term.toString());
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException("analysing a question in memory failed", e);
        }
        return terms;
    }
}
