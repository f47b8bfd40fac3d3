package dev.switchboard.it.support;

import dev.switchboard.testing.ServerEverything;
import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code src/test/node/recording-server.mjs} (a Streamable HTTP MCP backend on the official SDK) on a port of its own,
 * restartable on the same port: every HTTP request it receives is one JSON line of {@link #lines()} (method, JSON-RPC
 * method, tool, all headers). Tools {@code echo} and {@code sleep}.
 */
public final class RecordingBackend {

    private final int port;
    private final Path file;
    private Process process;

    private RecordingBackend(int port, Path file) {
        this.port = port;
        this.file = file;
    }

    public static RecordingBackend start() throws IOException {
        Path nodeDir = Paths.get(System.getProperty("switchboard.node.dir", "target/node")).toAbsolutePath();
        Files.copy(Paths.get("src/test/node/recording-server.mjs"), nodeDir.resolve("recording-server.mjs"), StandardCopyOption.REPLACE_EXISTING);
        RecordingBackend recorder = new RecordingBackend(ServerEverything.freePort(), Files.createTempFile("recorded-headers", ".jsonl"));
        recorder.restart();
        return recorder;
    }

    public String url() {
        return "http://127.0.0.1:" + port + "/mcp";
    }

    public void restart() throws IOException {
        Path nodeDir = Paths.get(System.getProperty("switchboard.node.dir", "target/node")).toAbsolutePath();
        process = new ProcessBuilder("node", nodeDir.resolve("recording-server.mjs").toString(), Integer.toString(port), file.toString())
                .directory(nodeDir.toFile()).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String first = out.readLine();
        if (first == null || !first.startsWith("listening")) {
            throw new AssertionError("recording server did not start: " + first);
        }
    }

    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public List<JsonObject> lines() {
        try {
            return Files.readAllLines(file).stream().filter(l -> !l.isBlank()).map(RecordingBackend::parse).toList();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static JsonObject parse(String json) {
        try (var reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }
}
