package dev.switchboard.knowledge;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.DelegatingAnalyzerWrapper;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.cn.smart.SmartChineseAnalyzer;
import org.apache.lucene.analysis.core.FlattenGraphFilter;
import org.apache.lucene.analysis.miscellaneous.WordDelimiterGraphFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;

/**
 * Every passage is indexed twice, in two fields with different analyzers, and a question is matched against both
 * (BM25 per field, summed):
 * <ul>
 * <li>{@link #WORDS}: {@link SmartChineseAnalyzer}, which segments Chinese into dictionary words (HMM), and
 * lower-cases and Porter-stems English, so "工具调用" matches "调用工具" and "servers" matches "server".</li>
 * <li>{@link #PARTS}: Unicode word boundaries, CJK bigrams and identifier splitting. Code and technical prose name
 * things {@code CallTool}, {@code mcp_client.go} or {@code client.Client}; smartcn keeps those whole, so a question
 * that says "call tool" would miss them. Here identifiers are split at case changes, underscores, dots and digits,
 * keeping the original too (so an exact identifier still ranks highest), and Chinese is also indexed as overlapping
 * character bigrams, which catch words smartcn's dictionary segments differently in question and document (new
 * terms, product names).</li>
 * </ul>
 * One combined analyzer per field rather than one for everything: smartcn's segmentation and the identifier split
 * would fight over the same tokens, and separate fields let BM25 weigh each view by its own statistics.
 */
final class KnowledgeAnalyzer extends DelegatingAnalyzerWrapper {

    static final String WORDS = "words";
    static final String PARTS = "parts";

    private static final int PART_FLAGS = WordDelimiterGraphFilter.GENERATE_WORD_PARTS
            | WordDelimiterGraphFilter.GENERATE_NUMBER_PARTS
            | WordDelimiterGraphFilter.SPLIT_ON_CASE_CHANGE
            | WordDelimiterGraphFilter.SPLIT_ON_NUMERICS
            | WordDelimiterGraphFilter.PRESERVE_ORIGINAL
            | WordDelimiterGraphFilter.STEM_ENGLISH_POSSESSIVE;

    private final Analyzer words = new SmartChineseAnalyzer();
    private final Analyzer parts = new Analyzer() {
        @Override
        protected TokenStreamComponents createComponents(String fieldName) {
            Tokenizer tokenizer = new StandardTokenizer();
            TokenStream stream = new CJKBigramFilter(tokenizer);
            stream = new WordDelimiterGraphFilter(stream, PART_FLAGS, null);
            // the delimiter filter emits a token graph; the index needs it flat
            stream = new FlattenGraphFilter(stream);
            return new TokenStreamComponents(tokenizer, new LowerCaseFilter(stream));
        }
    };

    KnowledgeAnalyzer() {
        super(PER_FIELD_REUSE_STRATEGY);
    }

    @Override
    protected Analyzer getWrappedAnalyzer(String fieldName) {
        return WORDS.equals(fieldName) ? words : parts;
    }

    @Override
    public void close() {
        words.close();
        parts.close();
        super.close();
    }
}
