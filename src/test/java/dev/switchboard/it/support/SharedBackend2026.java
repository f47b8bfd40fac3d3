package dev.switchboard.it.support;

import jakarta.json.Json;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A backend that speaks only MCP 2026-07-28 ({@code src/test/node-2026/backend-2026.mjs}: the official TypeScript SDK
 * v2 server, refusing the session era's {@code initialize}) on a free port, registered as a shared Streamable HTTP
 * server of the default tenant for the tests of a class, removed after.
 */
public final class SharedBackend2026 implements BeforeAllCallback, AfterAllCallback {

    private static final String SCRIPT = "backend-2026.mjs";

    private final String label;
    private Process process;
    private String url;
    private long id;
    private String name;

    public SharedBackend2026(String label) {
        this.label = label;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Api.awaitReady();
        Path nodeDir = Paths.get(System.getProperty("switchboard.node2026.dir", "target/node-2026")).toAbsolutePath();
        Files.copy(Paths.get("src/test/node-2026", SCRIPT), nodeDir.resolve(SCRIPT), StandardCopyOption.REPLACE_EXISTING);
        process = new ProcessBuilder("node", SCRIPT, "0").directory(nodeDir.toFile())
                .redirectError(ProcessBuilder.Redirect.appendTo(Paths.get("target", "backend-2026.log").toFile())).start();
        CompletableFuture<String> listening = CompletableFuture.supplyAsync(() -> {
            try {
                return new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)).readLine();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        String line = listening.get(30, TimeUnit.SECONDS);
        if (line == null || !line.startsWith("listening ")) {
            throw new IllegalStateException(SCRIPT + " did not start: " + line + " (see target/backend-2026.log)");
        }
        url = "http://127.0.0.1:" + line.substring("listening ".length()).strip() + "/mcp";
        name = Names.unique(Servers.GATEWAY_PREFIX + label);
        id = Servers.register(Api.adminToken(), Json.createObjectBuilder().add("name", name).add("baseUrl", url)
                .add("scope", "shared").build());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            if (id != 0) {
                Api.delete("/api/mcp-servers/" + id, Api.adminToken()).expect(204);
            }
        } finally {
            if (process != null) {
                process.destroyForcibly();
            }
        }
    }

    /** Its gateway name, the prefix of its tools on /mcp. */
    public String name() {
        return name;
    }

    public String url() {
        return url;
    }
}
