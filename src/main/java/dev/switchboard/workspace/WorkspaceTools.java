package dev.switchboard.workspace;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;

import java.util.List;

/**
 * The built-in workspace tools of a session workspace: their definitions in MCP {@code tools/list} shape, and their calls
 * answered as MCP {@code CallToolResult}s. A refusal is a result with {@code isError: true} whose text says why,
 * so the LLM can correct itself.
 */
public final class WorkspaceTools {

    /** The prefix of their LLM-facing names, in the {@code mcp__} style: {@code workspace__read_file}. */
    public static final String PREFIX = "workspace__";

    private static final List<JsonObject> DEFINITIONS = List.of(
            definition("read_file", "Read a UTF-8 text file of the session's workspace.", true, false),
            definition("write_file", "Write (create or replace) a UTF-8 text file in the session's workspace; folders are created as needed.", true, true),
            definition("list_files", "List the files and folders of the session's workspace, or of one folder in it.", false, false),
            definition("delete_file", "Delete a file or an empty folder of the session's workspace.", true, false));

    private WorkspaceTools() {
    }

    /** Each tool as {@code {name, description, inputSchema}}, {@code name} without the prefix. */
    public static List<JsonObject> definitions() {
        return DEFINITIONS;
    }

    /** Runs one tool ({@code name} without the prefix) in {@code workspace}. */
    public static JsonObject call(Workspace workspace, String name, JsonObject arguments) {
        try {
            WorkspaceFiles files = workspace.files();
            String path = arguments.get("path") instanceof JsonString s ? s.getString() : null;
            String text = switch (name) {
                case "read_file" -> files.read(path);
                case "write_file" -> {
                    if (!(arguments.get("content") instanceof JsonString content)) {
                        throw new WorkspaceException("'content' (a string) is required");
                    }
                    yield files.write(path, content.getString());
                }
                case "list_files" -> files.list(path == null ? "." : path);
                case "delete_file" -> files.delete(path);
                default -> throw new WorkspaceException("There is no workspace tool '" + name + "'");
            };
            return result(text, false);
        } catch (WorkspaceException e) {
            return result(e.getMessage(), true);
        }
    }

    private static JsonObject result(String text, boolean isError) {
        return Json.createObjectBuilder().add("content", Json.createArrayBuilder().add(Json.createObjectBuilder()
                .add("type", "text").add("text", text))).add("isError", isError).build();
    }

    private static JsonObject definition(String name, String description, boolean pathRequired, boolean withContent) {
        JsonObjectBuilder properties = Json.createObjectBuilder().add("path", Json.createObjectBuilder().add("type", "string")
                .add("description", "Relative to the workspace, e.g. notes/summary.md; no '..' and no absolute paths"));
        if (withContent) {
            properties.add("content", Json.createObjectBuilder().add("type", "string").add("description", "The whole new text of the file"));
        }
        var required = Json.createArrayBuilder();
        if (pathRequired) {
            required.add("path");
        }
        if (withContent) {
            required.add("content");
        }
        return Json.createObjectBuilder().add("name", name).add("description", description)
                .add("inputSchema", Json.createObjectBuilder().add("type", "object").add("properties", properties)
                        .add("required", required)).build();
    }
}
