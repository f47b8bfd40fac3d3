package dev.switchboard.it.support;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Runs {@code src/test/node/gateway-client.mjs} (or {@code gateway-socket.mjs}), the official TypeScript SDK client,
 * against the server's {@code /mcp} and returns what it printed. The script is copied next to the installed {@code node_modules} so its imports resolve.
 */
public final class GatewayClient {

    /** {@code /mcp} over WebSocket. */
    public static final String SOCKET_URL = Api.BASE.replaceFirst("^http", "ws") + "/mcp";
    private static final long RUN_TIMEOUT_SECONDS = 120;
    /** The module both clients import for their calls with progress. */
    private static final String PROGRESS_TAP = "progress-tap.mjs";

    private GatewayClient() {
    }

    /** Connects with the token, runs the steps and disconnects; fails the test when the script itself breaks. */
    public static JsonObject run(String token, JsonArray steps) {
        return runScript("gateway-client.mjs", Api.BASE + "/mcp", token, steps);
    }

    /** Runs one of the node clients of {@code src/test/node} with the url, token and steps. */
    public static JsonObject runScript(String name, String url, String token, JsonArray steps) {
        return runScript("node", name, url, token, steps);
    }

    /**
     * Runs {@code src/test/node-2026/gateway-client-2026.mjs}, the official TypeScript SDK v2 client pinned to MCP
     * 2026-07-28, with the url, token and steps; its output also holds every HTTP exchange it made ({@code wire}).
     */
    public static JsonObject run2026(String url, String token, JsonArray steps) {
        return runScript("node-2026", "gateway-client-2026.mjs", url, token, steps);
    }

    /** @param packages the package directory: {@code node} or {@code node-2026}, under src/test and target */
    private static JsonObject runScript(String packages, String name, String url, String token, JsonArray steps) {
        Path nodeDir = Paths.get(System.getProperty(packages.equals("node") ? "switchboard.node.dir" : "switchboard.node2026.dir",
                "target/" + packages)).toAbsolutePath();
        try {
            Path script = nodeDir.resolve(name);
            Files.copy(Paths.get("src/test", packages, name), script, StandardCopyOption.REPLACE_EXISTING);
            if (packages.equals("node")) {
                Files.copy(Paths.get("src/test/node", PROGRESS_TAP), nodeDir.resolve(PROGRESS_TAP), StandardCopyOption.REPLACE_EXISTING);
            }
            Process process = new ProcessBuilder("node", script.toString(), url, token, steps.toString())
                    .directory(nodeDir.toFile())
                    .redirectError(ProcessBuilder.Redirect.appendTo(Paths.get("target", "gateway-client.log").toFile()))
                    .start();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(name + " did not finish within " + RUN_TIMEOUT_SECONDS + " s");
            }
            String text = new String(out, StandardCharsets.UTF_8).strip();
            try (var reader = Json.createReader(new StringReader(text))) {
                JsonObject result = reader.readObject();
                if (result.containsKey("fatal")) {
                    throw new AssertionError("SDK client failed: " + result);
                }
                return result;
            } catch (RuntimeException e) {
                throw new AssertionError(name + " printed no JSON: " + text, e);
            }
        } catch (IOException e) {
            throw new AssertionError("cannot run node", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /**
     * Asserts that a call with progress (an outcome of {@code progress-tap.mjs}) succeeded and that the gateway sent
     * the client all {@code steps} progress notifications under the call's token, in order, before the response;
     * and that every one the SDK did not hand to {@code onprogress} is one it dropped itself because it arrived in
     * the same read as the response (typescript-sdk issue #2580), not one that never came.
     */
    public static void assertProgressDelivered(JsonObject call, int steps) {
        assertFalse(call.containsKey("error"), call::toString);
        JsonArrayBuilder expected = Json.createArrayBuilder();
        IntStream.rangeClosed(1, steps).forEach(expected::add);
        assertEquals(expected.add("response").build(), call.getJsonArray("wire"), () -> "what the wire carried: " + call);
        assertEquals(steps, call.getJsonArray("progress").size() + call.getInt("droppedBySdk"), call::toString);
    }

    /** The outcome of the only step. */
    public static JsonObject single(String token, JsonObject step) {
        return run(token, Json.createArrayBuilder().add(step).build()).getJsonArray("steps").getJsonObject(0);
    }

    /** The outcome of the only step of {@code gateway-socket.mjs}, the SDK's WebSocket client, on {@code /mcp}. */
    public static JsonObject socketStep(String token, JsonObject step) {
        return runScript("gateway-socket.mjs", SOCKET_URL, token, Json.createArrayBuilder().add(step).build())
                .getJsonArray("steps").getJsonObject(0);
    }

    /** Raw text frames on the {@code /mcp} WebSocket; the answers, as {@code gateway-socket.mjs} read them. */
    public static JsonObject socketRaw(String token, String... texts) {
        return socketRaw(token, Json.createObjectBuilder(), texts);
    }

    /** Raw text frames on the {@code /mcp} WebSocket, with the step's options (protocols, headers). */
    public static JsonObject socketRaw(String token, JsonObjectBuilder step, String... texts) {
        var array = Json.createArrayBuilder();
        List.of(texts).forEach(array::add);
        return socketStep(token, step.add("op", "raw").add("texts", array).build());
    }
}
