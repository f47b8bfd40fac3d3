package dev.switchboard.knowledge;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.DelegatingAnalyzerWrapper;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.cn.smart.SmartChineseAnalyzer;
import org.apache.lucene.analysis.core.FlattenGraphFilter;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.miscellaneous.WordDelimiterGraphFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;

import java.util.List;

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
 * <p>
 * Both drop {@link #STOP_WORDS}: the function words of English and Chinese questions ("how do I", "怎么", "的").
 * In a knowledge base of a handful of files, as the RAG feature's, such words are rare, so BM25 would give them a high IDF
 * and a question's phrasing would weigh as much as its subject.
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

    static final CharArraySet STOP_WORDS = stopWords();

    private final Analyzer words = new SmartChineseAnalyzer(STOP_WORDS);
    private final Analyzer parts = new Analyzer() {
        @Override
        protected TokenStreamComponents createComponents(String fieldName) {
            Tokenizer tokenizer = new StandardTokenizer();
            TokenStream stream = new CJKBigramFilter(tokenizer);
            stream = new WordDelimiterGraphFilter(stream, PART_FLAGS, null);
            // the delimiter filter emits a token graph; the index needs it flat
            stream = new FlattenGraphFilter(stream);
            return new TokenStreamComponents(tokenizer, new StopFilter(new LowerCaseFilter(stream), STOP_WORDS));
        }
    };

    /** smartcn's own list (punctuation) plus Lucene's English stop words and the words questions are made of. */
    private static CharArraySet stopWords() {
        CharArraySet set = new CharArraySet(SmartChineseAnalyzer.getDefaultStopSet(), false);
        set.addAll(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
        set.addAll(List.of("how", "what", "why", "when", "where", "which", "who", "do", "does", "did", "i", "you",
                "we", "my", "me", "can", "should", "would", "could", "have", "has",
                "的", "了", "是", "吗", "呢", "吧", "啊", "怎么", "怎样", "如何", "什么", "哪些", "哪个", "为什么", "我", "你",
                "我们", "在", "和", "与", "有", "要", "请", "应该", "可以", "能", "时"));
        return CharArraySet.unmodifiableSet(set);
    }

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
