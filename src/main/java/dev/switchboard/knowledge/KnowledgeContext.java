package dev.switchboard.knowledge;

import java.util.List;
import java.util.Locale;

/**
 * The user message that carries retrieved passages to the LLM, worded like the RAG feature's context (a header with the
 * question, each passage with its relevance and source, a closing instruction), with the line range added to each
 * source so the model can cite it precisely.
 */
final class KnowledgeContext {

    /** The question is echoed for orientation only; a long one is cut so the message stays about the passages. */
    static final int MAX_ECHOED_QUESTION_CHARS = 200;

    private KnowledgeContext() {
    }

    static String message(String question, List<KnowledgeHit> hits) {
        String echoed = question.strip();
        if (echoed.length() > MAX_ECHOED_QUESTION_CHARS) {
            echoed = echoed.substring(0, MAX_ECHOED_QUESTION_CHARS) + "...";
        }
        StringBuilder text = new StringBuilder()
                .append("=== 相关上下文信息（知识库检索） ===\n")
                .append("查询: ").append(echoed).append("\n\n")
                .append("检索到的相关内容：\n\n");
        for (int i = 0; i < hits.size(); i++) {
            KnowledgeHit hit = hits.get(i);
            text.append(String.format(Locale.ROOT, "--- 片段 %d (相关性: %.2f) ---\n", i + 1, hit.score()))
                    .append("来源: ").append(hit.source()).append(" 第 ").append(hit.startLine()).append('-')
                    .append(hit.endLine()).append(" 行\n")
                    .append(hit.text()).append("\n\n");
        }
        return text.append("=== 上下文信息结束 ===\n")
                .append("请基于以上上下文信息回答用户的问题，引用时注明来源。\n")
                .toString();
    }
}
