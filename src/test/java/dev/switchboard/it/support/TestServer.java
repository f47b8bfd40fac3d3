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

    private static final Path WLP = Path.of("target/liberty/wlp");

    /** Restarts it with these environment variables added (MicroProfile Config reads them); returns when it is ready. */
    public static void restart(Map<String, String> environment) throws Exception {
        run(Map.of(), server(), "stop", "switchboard-it");
        run(environment, server(), "start", "switchboard-it");
        Api.awaitRestart();
    }

    /** Kills its JVM as a crash would ({@code kill -9}: no shutdown hook, nothing flushed); returns once it is gone. */
    public static void kill() throws Exception {
        long pid = Long.parseLong(Files.readString(WLP.resolve("usr/servers/.pid/switchboard-it.pid")).strip());
        ProcessHandle jvm = ProcessHandle.of(pid).orElseThrow(() -> new AssertionError("no process " + pid));
        assertTrue(jvm.destroyForcibly(), "SIGKILL to " + pid);
        jvm.onExit().get(30, TimeUnit.SECONDS);
    }

    /** Starts it again after {@link #kill()}, as it was configured by the build; returns when it is ready. */
    public static void start() throws Exception {
        run(Map.of(), server(), "start", "switchboard-it");
        Api.awaitRestart();
    }

    private static String server() {
        Path server = WLP.resolve("bin/server");
        assertTrue(Files.isExecutable(server), "Liberty of the build at " + server.toAbsolutePath());
        return server.toString();
    }

    private static void run(Map<String, String> environment, String... command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        builder.environment().putAll(environment);
        Process process = builder.start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " took too long");
        assertEquals(0, process.exitValue(), String.join(" ", command));
    }
}
