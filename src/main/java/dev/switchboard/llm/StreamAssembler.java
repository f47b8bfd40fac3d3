package dev.switchboard.llm;

import dev.switchboard.platform.json.WholeNumbers;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds one assistant turn from {@code chat.completion.chunk}s. Tool calls arrive in either shape providers use:
 * fragments keyed by {@code index} with {@code id}/{@code name} first and {@code arguments} in pieces (OpenAI, vLLM),
 * or whole calls in one chunk, sometimes without {@code index} or all at index 0 (Ollama).
 */
final class StreamAssembler {

    /**
     * The most tool calls one streamed turn may hold. A fragment's {@code index} says where its call goes, and the
     * calls before it are made as it is read: without a bound, one fragment at index 2,000,000,000 would have this
     * process make two billion of them.
     */
    static final int MAX_TOOL_CALLS = 256;

    private static final class PartialCall {
        String id = "";
        String name = "";
        final StringBuilder arguments = new StringBuilder();
    }

    private final StreamListener listener;
    private final StringBuilder content = new StringBuilder();
    private final List<PartialCall> calls = new ArrayList<>();
    private String model;
    private String finishReason;
    private Usage usage = Usage.NONE;
    private boolean sawChunk;

    StreamAssembler(StreamListener listener) {
        this.listener = listener;
    }

    void accept(JsonObject chunk) throws LlmException {
        ReplyParser.failIfError(chunk);
        sawChunk = true;
        if (chunk.get("model") instanceof JsonString m) {
            model = m.getString();
        }
        if (chunk.get("usage") instanceof JsonObject u) {
            usage = Usage.of(u);
        }
        if (!(chunk.get("choices") instanceof JsonArray choices)) {
            throw new LlmException(LlmException.Kind.MALFORMED, "The LLM provider sent a stream chunk without choices: "
                    + ReplyParser.quote(chunk.toString()));
        }
        for (JsonValue value : choices) {
            if (value instanceof JsonObject choice && choice.getInt("index", 0) == 0) {
                acceptChoice(choice);
            }
        }
    }

    private void acceptChoice(JsonObject choice) throws LlmException {
        if (choice.get("delta") instanceof JsonObject delta) {
            if (delta.get("content") instanceof JsonString text && !text.getString().isEmpty()) {
                content.append(text.getString());
                listener.onContent(text.getString());
            }
            if (delta.get("tool_calls") instanceof JsonArray fragments) {
                for (JsonValue fragment : fragments) {
                    if (!(fragment instanceof JsonObject f)) {
                        throw new LlmException(LlmException.Kind.MALFORMED, "The LLM provider sent a tool-call fragment that is not an object");
                    }
                    merge(f);
                }
            }
        }
        if (choice.get("finish_reason") instanceof JsonString finish) {
            finishReason = finish.getString();
        }
    }

    private void merge(JsonObject fragment) throws LlmException {
        String id = fragment.getString("id", "");
        JsonObject function = fragment.get("function") instanceof JsonObject f ? f : null;
        String name = function != null && function.get("name") instanceof JsonString n ? n.getString() : "";
        PartialCall call = target(fragment, id);
        if (!id.isEmpty()) {
            call.id = id;
        }
        if (call.name.isEmpty()) {
            call.name = name;
        }
        if (function != null) {
            call.arguments.append(ReplyParser.arguments(function.get("arguments")));
        }
    }

    /** Which call a fragment belongs to. */
    private PartialCall target(JsonObject fragment, String id) throws LlmException {
        int index;
        if (fragment.get("index") instanceof JsonNumber n) {
            index = WholeNumbers.asInt(n).orElse(-1);
            if (index < 0 || index >= MAX_TOOL_CALLS) {
                throw new LlmException(LlmException.Kind.MALFORMED, "The LLM provider sent a tool-call fragment whose index "
                        + ReplyParser.quote(n.toString()) + " is not a whole number from 0 to " + (MAX_TOOL_CALLS - 1));
            }
            // a new id where a complete call already sits: a provider that numbers every whole call 0
            if (index < calls.size() && !id.isEmpty() && !calls.get(index).id.isEmpty() && !calls.get(index).id.equals(id)) {
                index = calls.size();
            }
        } else if (id.isEmpty()) {
            index = Math.max(0, calls.size() - 1);
        } else {
            index = indexOf(id);
        }
        while (calls.size() <= index) {
            calls.add(new PartialCall());
        }
        return calls.get(index);
    }

    /** The call with this id, or a new one at the end (whole calls without {@code index}). */
    private int indexOf(String id) {
        for (int i = 0; i < calls.size(); i++) {
            if (calls.get(i).id.equals(id)) {
                return i;
            }
        }
        return calls.size();
    }

    /**
     * The turn, once the stream ended.
     *
     * @param sawDone whether {@code data: [DONE]} arrived (some providers end with the finish chunk only)
     */
    LlmReply finish(boolean sawDone) throws LlmException {
        if (!sawChunk) {
            throw new LlmException(LlmException.Kind.MALFORMED, "The LLM provider's stream ended without a single chunk");
        }
        if (finishReason == null && !sawDone) {
            throw new LlmException(LlmException.Kind.MALFORMED, "The LLM provider's stream ended before the answer was finished");
        }
        List<ToolCall> toolCalls = new ArrayList<>();
        for (PartialCall call : calls) {
            if (call.name.isEmpty()) {
                throw new LlmException(LlmException.Kind.MALFORMED, "The LLM provider streamed a tool call without a function name");
            }
            toolCalls.add(new ToolCall(ReplyParser.idOrNew(call.id), call.name, call.arguments.toString()));
        }
        return new LlmReply(model, content.toString(), toolCalls, finishReason, usage);
    }
}
