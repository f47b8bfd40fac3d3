package dev.switchboard.llm;

/**
 * One function call the model asked for.
 *
 * @param arguments the arguments as the model wrote them: a JSON text, possibly invalid
 */
public record ToolCall(String id, String name, String arguments) {
}
