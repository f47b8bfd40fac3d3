package dev.switchboard.testing;

import dev.switchboard.mcp.client.BackendSpec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A scripted stdio MCP server ({@code src/test/node/scripted-server.js}) for behaviour server-everything does not
 * show: pagination, {@code tools/list_changed}, server-to-client requests, cancellation, late answers, dying mid-call.
 * Its tools: {@code change}, {@code hang}, {@code late}, {@code ask}, {@code cancelled}, {@code exit}.
 */
public final class ScriptedServer {

    private ScriptedServer() {
    }

    public static Path script() {
        Path script = Paths.get("src", "test", "node", "scripted-server.js").toAbsolutePath();
        if (!Files.isRegularFile(script)) {
            throw new IllegalStateException("missing " + script);
        }
        return script;
    }

    /** Answers initialize with the version the client offered. */
    public static BackendSpec spec() {
        return spec(null);
    }

    /** Answers initialize with the given protocol version (null: the offered one). */
    public static BackendSpec spec(String protocolVersion) {
        Map<String, String> env = new HashMap<>();
        if (protocolVersion != null) {
            env.put("PROTOCOL_VERSION", protocolVersion);
        }
        return BackendSpec.stdio("node", List.of(script().toString()), env);
    }
}
