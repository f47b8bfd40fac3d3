package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs scenarios of the official conformance suite ({@code @modelcontextprotocol/conformance@0.1.13}) against an MCP
 * URL, and the test-only proxy that adds the bearer token the suite cannot send.
 */
final class ConformanceSuite {

    /** Every server scenario of 0.1.13, as {@code conformance list} prints them. */
    static final List<String> SERVER_SCENARIOS = List.of("server-initialize", "logging-set-level", "ping",
            "completion-complete", "tools-list", "tools-call-simple-text", "tools-call-image", "tools-call-audio",
            "tools-call-embedded-resource", "tools-call-mixed-content", "tools-call-with-logging", "tools-call-error",
            "tools-call-with-progress", "tools-call-sampling", "tools-call-elicitation", "json-schema-2020-12",
            "elicitation-sep1034-defaults", "server-sse-polling", "server-sse-multiple-streams", "elicitation-sep1330-enums",
            "resources-list", "resources-read-text", "resources-read-binary", "resources-templates-read",
            "resources-subscribe", "resources-unsubscribe", "prompts-list", "prompts-get-simple", "prompts-get-with-args",
            "prompts-get-embedded-resource", "prompts-get-with-image", "dns-rebinding-protection");
    private static final Pattern PASSED = Pattern.compile("Passed: (\\d+)/(\\d+)");
    private static final long SCENARIO_TIMEOUT_SECONDS = 120;

    private ConformanceSuite() {
    }

    static Path nodeDir() {
        return Paths.get(System.getProperty("switchboard.node.dir", "target/node")).toAbsolutePath();
    }

    /** Starts the auth proxy in front of the IT server on a free port; the caller destroys it. */
    static Process startProxy(int port, String token) throws IOException, InterruptedException {
        Path script = nodeDir().resolve("auth-proxy.mjs");
        Files.copy(Paths.get("src/test/node/auth-proxy.mjs"), script, StandardCopyOption.REPLACE_EXISTING);
        Process proxy = new ProcessBuilder("node", script.toString(), String.valueOf(port), Api.BASE, token)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(Paths.get("target", "auth-proxy.log").toFile()))
                .start();
        awaitListening(port);
        return proxy;
    }

    /** "pass n/n" or "fail n/m (...)"; the output is kept in {@code target/conformance-<label>-<scenario>.log}. */
    static String run(String url, String scenario, String label) throws IOException, InterruptedException {
        Path cli = nodeDir().resolve("node_modules/@modelcontextprotocol/conformance/dist/index.js");
        Path log = Paths.get("target", "conformance-" + label + "-" + scenario + ".log");
        Process process = new ProcessBuilder("node", cli.toString(), "server", "--url", url, "--scenario", scenario)
                .directory(nodeDir().toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(SCENARIO_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return "fail (no result within " + SCENARIO_TIMEOUT_SECONDS + " s)";
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        Matcher passed = PASSED.matcher(output);
        if (!passed.find()) {
            return "fail (no summary, see " + log + ")";
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
