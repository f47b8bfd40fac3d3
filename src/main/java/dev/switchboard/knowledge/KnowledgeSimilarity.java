package dev.switchboard.knowledge;

import org.apache.lucene.search.similarities.BM25Similarity;

/**
 * Lucene's BM25 (k1 = 1.2, b = 0.75) with its inverse document frequency exposed. Since Lucene 8 a term's BM25
 * score is {@code boost * idf * tf / (tf + k1 * lengthNorm)}, which approaches {@code boost * idf} as tf grows and
 * never reaches it: that ceiling is what {@link KnowledgeQuery} divides by.
 */
final class KnowledgeSimilarity extends BM25Similarity {

    double ceiling(long docFreq, long docCount) {
        return idf(docFreq, docCount);
    }
}
