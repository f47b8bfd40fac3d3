package dev.switchboard.chat;

import java.util.Map;

/**
 * What the chosen assistant brings to a run; all empty without an assistant.
 *
 * @param systemPrompt the assistant's prompt, or null
 * @param model        the assistant's model, or null (the request's model wins over it)
 * @param tools        its servers' enabled tools by LLM-facing name
 * @param invoker      runs those tools as the caller
 * @param knowledge    whether the assistant wants knowledge-base passages injected (RAG)
 */
public record ChatSetup(Long assistantId, String systemPrompt, String model, Map<String, McpTool> tools, ToolInvoker invoker,
                        boolean knowledge) {

    /** No assistant: no prompt, no model preference, no MCP tools (so nothing for the invoker to call). */
    public static final ChatSetup NONE = new ChatSetup(null, null, null, Map.of(), (tool, arguments) -> {
        throw new IllegalStateException("a run without an assistant has no MCP tool '" + tool.displayName() + "'");
    }, false);
}
