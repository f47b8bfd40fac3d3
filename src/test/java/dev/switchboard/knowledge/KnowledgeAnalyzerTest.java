package dev.switchboard.knowledge;

import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

class KnowledgeAnalyzerTest {

    private static final KnowledgeAnalyzer ANALYZER = new KnowledgeAnalyzer();

    @AfterAll
    static void close() {
        ANALYZER.close();
    }

    static List<String> tokens(String field, String text) throws IOException {
        List<String> tokens = new ArrayList<>();
        try (TokenStream stream = ANALYZER.tokenStream(field, text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                tokens.add(term.toString());
            }
            stream.end();
        }
        return tokens;
    }

    @Test
    void chineseIsSegmentedIntoWordsAndEnglishIsStemmed() throws IOException {
        List<String> words = tokens(KnowledgeAnalyzer.WORDS, "调用工具的服务器 servers");
        assertTrue(words.containsAll(List.of("调用", "工具", "服务器", "server")), words.toString());
    }

    @Test
    void identifiersAreSplitAndKeptWhole() throws IOException {
        List<String> parts = tokens(KnowledgeAnalyzer.PARTS, "m.Client.CallTool(ctx) in mcp_client.go");
        assertTrue(parts.containsAll(List.of("m.client.calltool", "call", "tool", "mcp_client.go", "mcp", "client", "go")),
                parts.toString());
        List<String> identifier = tokens(KnowledgeAnalyzer.PARTS, "CallTool");
        assertTrue(identifier.containsAll(List.of("calltool", "call", "tool")), identifier.toString());
    }

    @Test
    void chineseIsAlsoIndexedAsBigrams() throws IOException {
        List<String> parts = tokens(KnowledgeAnalyzer.PARTS, "未登录词");
        assertTrue(parts.containsAll(List.of("未登", "登录", "录词")), parts.toString());
    }
}
