package dev.switchboard.chat;

import dev.switchboard.llm.ToolCall;
import dev.switchboard.llm.Usage;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Writes a run as {@code text/event-stream}. Every {@code data:} line is an OpenAI {@code chat.completion.chunk}
 * (one id, created, model) that also carries the chat API's {@code type} and top-level {@code delta}, so OpenAI SDKs
 * and clients of the chat API's own format both read it.
 * <p>
 * {@code choices} carry only what the caller acts on: the text and, in manual mode, the tool calls handed back.
 * Tool calls Switchboard runs itself appear as {@code tool_call} and {@code tool_result} chunks with empty
 * {@code choices}, so an SDK that accumulates deltas into one message does not mix several rounds' calls.
 * Text chunks are flushed once the provider has nothing more at hand ({@link #flush}, when its stream is about to wait),
 * so text that arrived together leaves together and text that trickles in leaves as it comes; every other chunk is
 * flushed at once. A flush per text chunk was a tenth of a streamed completion's CPU with a provider that sends its
 * chunks back to back (bench/README.md, "Chat first byte round 3"). Thread-safe: tool results arrive from several
 * threads.
 */
final class ChunkStream {

    private final OutputStream out;
    private final CompletionIdentity identity;

    ChunkStream(OutputStream out, CompletionIdentity identity) {
        this.out = out;
        this.identity = identity;
    }

    /**
     * The first chunk, written before anything else happens so the caller sees the answer begin at once. On Liberty
     * the response's first flush commits it without sending anything (measured: the bytes waited for the next
     * flush, i.e. the first content); so the event's closing blank line goes out with a flush of its own.
     */
    void role() {
        JsonObject delta = JSON.createObjectBuilder().add("role", "assistant").add("content", "").build();
        send("data: " + chunk("content", choice(delta, null)).add("delta", delta).build() + "\n");
        send("\n");
    }

    /** Written, not flushed: see {@link #flush}. */
    void content(String text) {
        JsonObject delta = JSON.createObjectBuilder().add("content", text).build();
        put(data(chunk("content", choice(delta, null)).add("delta", delta)), false);
    }

    /** Sends what was written. */
    synchronized void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("the client closed the stream", e);
        }
    }

    /** Calls Switchboard is about to run. */
    void toolCalls(List<ToolCallRecord> invoking) {
        JsonArrayBuilder calls = JSON.createArrayBuilder();
        for (int i = 0; i < invoking.size(); i++) {
            ToolCallRecord record = invoking.get(i);
            calls.add(JSON.createObjectBuilder().add("index", i).add("id", record.id()).add("type", "function")
                    .add("function", JSON.createObjectBuilder().add("name", record.displayName())
                            .add("arguments", record.arguments() instanceof JsonString s ? s.getString() : record.arguments().toString()))
                    .add("status", record.status().json()));
        }
        write(chunk("tool_call", JSON.createArrayBuilder()).add("delta", JSON.createObjectBuilder().add("tool_calls", calls)));
    }

    void toolResult(ToolCallRecord record, String content) {
        write(chunk("tool_result", JSON.createArrayBuilder()).add("tool_call_id", record.id())
                .add("name", record.displayName()).add("status", record.status().json())
                .add("result", JSON.createObjectBuilder().add("success", !record.isError()).add("content", content)));
    }

    /** Manual mode: the calls the caller must run, whole, in {@code choices} as OpenAI clients expect. */
    void pendingCalls(List<ToolCall> calls) {
        JsonObject delta = JSON.createObjectBuilder().add("tool_calls", CompletionJson.toolCalls(calls, true)).build();
        write(chunk("tool_call", choice(delta, null)).add("delta", delta));
    }

    /**
     * The MCP client system's {@code assistant.toolCall.updated} on a named event line. Its data is a chunk too (empty
     * {@code choices}): OpenAI SDKs hand named events on as ordinary chunks, so they must look like one.
     */
    void toolCallUpdated(ToolCallRecord record, long messageId) {
        send("event: " + ToolCallBroadcast.TOOL_CALL_UPDATED + "\ndata: " + chunk("tool_call_updated", JSON.createArrayBuilder())
                .add("messageId", messageId).add("toolCall", record.toJson()).build() + "\n\n");
    }

    /** @param stored where the run is stored: its conversation and message ids end the answer */
    void done(String finishReason, JsonObject toolExecution, ConversationStore.StoredRun stored) {
        write(chunk("done", choice(JsonValue.EMPTY_JSON_OBJECT, finishReason)).add("finish_reason", finishReason)
                .add("tool_execution", toolExecution).add("conversation_id", stored.conversationId())
                .add("message_id", stored.messageId()));
    }

    /**
     * An SSE comment while calls wait for approval: clients ignore it, proxies see a live stream, and a client that
     * has gone is noticed at the next one rather than when the wait ends.
     */
    void keepAlive() {
        send(": waiting for approval\n\n");
    }

    /** OpenAI's final usage chunk ({@code stream_options.include_usage}): empty choices. */
    void usage(Usage usage) {
        write(chunk("usage", JSON.createArrayBuilder()).add("usage", usage.toJson()));
    }

    /** An error after the stream began: OpenAI SDKs raise {@code data: {"error":...}} as an API error. */
    void error(JsonObject errorBody) {
        send("data: " + errorBody + "\n\n");
    }

    void end() {
        send("data: [DONE]\n\n");
    }

    private JsonObjectBuilder chunk(String type, JsonArrayBuilder choices) {
        return JSON.createObjectBuilder().add("id", identity.id()).add("object", "chat.completion.chunk")
                .add("created", identity.created()).add("model", identity.model()).add("choices", choices).add("type", type);
    }

    private static JsonArrayBuilder choice(JsonObject delta, String finishReason) {
        JsonObjectBuilder choice = JSON.createObjectBuilder().add("index", 0).add("delta", delta);
        if (finishReason == null) {
            choice.addNull("finish_reason");
        } else {
            choice.add("finish_reason", finishReason);
        }
        return JSON.createArrayBuilder().add(choice);
    }

    private void write(JsonObjectBuilder chunk) {
        send(data(chunk));
    }

    private static String data(JsonObjectBuilder chunk) {
        return "data: " + chunk.build() + "\n\n";
    }

    private void send(String event) {
        put(event, true);
    }

    private synchronized void put(String event, boolean flush) {
        try {
            out.write(event.getBytes(StandardCharsets.UTF_8));
            if (flush) {
                out.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the client closed the stream", e);
        }
    }
}
