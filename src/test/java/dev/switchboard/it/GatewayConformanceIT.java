package dev.switchboard.it;

import dev.switchboard.testing.ServerEverything;
import jakarta.json.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The official conformance suite ({@code @modelcontextprotocol/conformance@0.1.13}) against {@code /mcp}: every generic
 * server scenario. The suite cannot send a token, so it talks through a test-only proxy that adds one. The outcome of
 * each scenario is written to {@code target/gateway-conformance.md}. A shared server-everything backend sits behind
 * the endpoint, so resources, prompts and logging have something to route to.
 */
class GatewayConformanceIT {

    private static final List<String> MUST_PASS = List.of("server-initialize", "ping", "tools-list",
            "dns-rebinding-protection", "server-sse-multiple-streams", "logging-set-level", "resources-list",
            "prompts-list");
    private static final Pattern PASSED = Pattern.compile("Passed: (\\d+)/(\\d+)");

    static Process proxy;
    static int proxyPort;
    static Path nodeDir;
    static ServerEverything backend;
    static long backendId;

    @BeforeAll
    static void startProxy() throws Exception {
        backend = ServerEverything.start(ServerEverything.Mode.STREAMABLE_HTTP);
        backendId = Api.post("/api/mcp-servers", Api.adminToken(), Json.createObjectBuilder()
                .add("name", GatewayStreamableHttpIT.PREFIX + "conformance-" + UUID.randomUUID().toString().substring(0, 6))
                .add("baseUrl", backend.url()).add("scope", "shared").build())
                .expect(201).json().getJsonNumber("id").longValue();
        nodeDir = Paths.get(System.getProperty("switchboard.node.dir", "target/node")).toAbsolutePath();
        Path script = nodeDir.resolve("auth-proxy.mjs");
        Files.copy(Paths.get("src/test/node/auth-proxy.mjs"), script, StandardCopyOption.REPLACE_EXISTING);
        proxyPort = ServerEverything.freePort();
        proxy = new ProcessBuilder("node", script.toString(), String.valueOf(proxyPort), Api.BASE, Api.newUser("default"))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(Paths.get("target", "auth-proxy.log").toFile()))
                .start();
        awaitListening(proxyPort);
    }

    @AfterAll
    static void stopProxy() {
        if (proxy != null) {
            proxy.destroy();
        }
        Api.delete("/api/mcp-servers/" + backendId, Api.adminToken()).expect(204);
        backend.close();
    }

    @Test
    void genericServerScenarios() throws Exception {
        Map<String, String> outcomes = new LinkedHashMap<>();
        List<String> failedThatMustPass = new ArrayList<>();
        for (String scenario : MUST_PASS) {
            String outcome = run(scenario);
            outcomes.put(scenario, outcome);
            if (!outcome.startsWith("pass")) {
                failedThatMustPass.add(scenario + ": " + outcome);
            }
        }
        StringBuilder report = new StringBuilder("# Conformance 0.1.13 against /mcp\n\n| scenario | outcome |\n| --- | --- |\n");
        outcomes.forEach((scenario, outcome) -> report.append("| ").append(scenario).append(" | ").append(outcome).append(" |\n"));
        Files.writeString(Paths.get("target", "gateway-conformance.md"), report);
        assertEquals(List.of(), failedThatMustPass, report::toString);
    }

    private static String run(String scenario) throws IOException, InterruptedException {
        Path cli = nodeDir.resolve("node_modules/@modelcontextprotocol/conformance/dist/index.js");
        Process process = new ProcessBuilder("node", cli.toString(), "server", "--url",
                "http://localhost:" + proxyPort + "/mcp", "--scenario", scenario)
                .directory(nodeDir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return "fail (no result within 120 s)";
        }
        Files.writeString(Paths.get("target", "conformance-" + scenario + ".log"), output);
        Matcher passed = PASSED.matcher(output);
        if (!passed.find()) {
            return "fail (no summary, see target/conformance-" + scenario + ".log)";
        }
        return (passed.group(1).equals(passed.group(2)) ? "pass " : "fail ") + passed.group(1) + "/" + passed.group(2);
    }

    private static void awaitListening(int port) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new AssertionError("auth proxy did not listen on " + port);
    }
}
