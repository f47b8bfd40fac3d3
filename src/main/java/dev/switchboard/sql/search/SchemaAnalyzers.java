package dev.switchboard.sql.search;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.cn.smart.SmartChineseAnalyzer;
import org.apache.lucene.analysis.en.EnglishMinimalStemFilter;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.analysis.standard.StandardTokenizer;

import java.util.Map;

/**
 * How the index reads text. Names (already split into words) are English words reduced to their singular, so
 * "orders" finds {@code order_items} and "user" finds {@code users}; comments and everything else go through
 * SmartChineseAnalyzer, which cuts Chinese into words ("用户订单" -> 用户, 订单) and stems English.
 */
final class SchemaAnalyzers {

    static final String NAME = "name";
    static final String COMMENT = "comment";
    static final String CONTEXT = "context";

    private SchemaAnalyzers() {
    }

    static Analyzer create() {
        Analyzer names = new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String fieldName) {
                StandardTokenizer tokenizer = new StandardTokenizer();
                TokenStream stream = new EnglishMinimalStemFilter(new LowerCaseFilter(tokenizer));
                return new TokenStreamComponents(tokenizer, stream);
            }
        };
        return new PerFieldAnalyzerWrapper(new SmartChineseAnalyzer(), Map.of(NAME, names));
    }
}
