package dev.switchboard.it.support;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Liberty the build started for the integration tests ({@code switchboard-it} in {@code target/liberty}). */
public final class TestServer {

    private TestServer() {
    }

    /** Restarts it with these environment variables added (MicroProfile Config reads them); returns when it is ready. */
    public static void restart(Map<String, String> environment) throws Exception {
        Path wlp = Path.of("target/liberty/wlp/bin/server");
        assertTrue(Files.isExecutable(wlp), "Liberty of the build at " + wlp.toAbsolutePath());
        run(Map.of(), wlp.toString(), "stop", "switchboard-it");
        run(environment, wlp.toString(), "start", "switchboard-it");
        Api.awaitRestart();
    }

    private static void run(Map<String, String> environment, String... command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        builder.environment().putAll(environment);
        Process process = builder.start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " took too long");
        assertEquals(0, process.exitValue(), String.join(" ", command));
    }
}
