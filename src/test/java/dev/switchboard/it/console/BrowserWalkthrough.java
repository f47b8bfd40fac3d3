package dev.switchboard.it.console;

import dev.switchboard.it.support.Api;
import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * One of the console's walkthroughs: a script of {@code src/test/node} that drives Debian's Chromium with
 * playwright-core, leaves a screenshot per step in {@code target/console-screenshots} and ends with a line
 * {@code RESULT {...}} saying what it made, for the test to check through the REST API.
 */
final class BrowserWalkthrough {

    static final Path SCREENSHOTS = Paths.get("target", "console-screenshots").toAbsolutePath();
    private static final String CHROMIUM = System.getProperty("it.chromium", "/usr/bin/chromium");
    private static final long MINUTES = 5;

    /** How a walkthrough ended: whether in time, its exit code, what it printed and its RESULT (null: none). */
    record Outcome(Path log, boolean finished, int exitValue, String output, JsonObject result) {

        /** Fails unless it finished in time, succeeded and printed its RESULT. */
        JsonObject assertPassed() {
            if (!finished) {
                fail("the browser walkthrough did not finish within " + MINUTES + " minutes; see " + log + " and " + SCREENSHOTS);
            }
            assertEquals(0, exitValue, () -> "the browser walkthrough failed; see " + log + " and the screenshots in "
                    + SCREENSHOTS + "\n" + output);
            assertTrue(result != null, "the walkthrough printed its RESULT line");
            return result;
        }
    }

    private BrowserWalkthrough() {
    }

    /**
     * Runs the script with these arguments (the server, its admin password, node_modules and the screenshot folder
     * are added); its output goes to {@code log}.
     */
    static Outcome run(String script, Path log, List<String> arguments) throws Exception {
        assertTrue(Files.isExecutable(Paths.get(CHROMIUM)), CHROMIUM + " is missing: install it with apt-get install -y chromium (.ci/run does)");
        String nodeModules = Paths.get(System.getProperty("switchboard.node.dir", "target/node"), "node_modules").toAbsolutePath().toString();
        List<String> command = new ArrayList<>(List.of("node", Paths.get("src", "test", "node", script).toAbsolutePath().toString()));
        command.addAll(List.of("--base-url", Api.BASE, "--password", Api.ADMIN_PASSWORD));
        command.addAll(arguments);
        command.addAll(List.of("--node-modules", nodeModules, "--out", SCREENSHOTS.toString()));
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean finished = process.waitFor(MINUTES, TimeUnit.MINUTES);
        if (!finished) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        System.out.println(output);
        return new Outcome(log, finished, finished ? process.exitValue() : -1, output, resultLine(output));
    }

    /** The screenshots whose file names match, sorted. */
    static List<String> screenshots(String pattern) throws Exception {
        try (var files = Files.list(SCREENSHOTS)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.matches(pattern)).sorted().toList();
        }
    }

    private static JsonObject resultLine(String output) {
        for (String line : output.split("\n")) {
            if (line.startsWith("RESULT ")) {
                try (var reader = Json.createReader(new StringReader(line.substring("RESULT ".length())))) {
                    return reader.readObject();
                }
            }
        }
        return null;
    }
}
