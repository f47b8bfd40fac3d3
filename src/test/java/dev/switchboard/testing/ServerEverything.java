package dev.switchboard.testing;

import dev.switchboard.mcp.client.BackendSpec;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The official {@code @modelcontextprotocol/server-everything} as a real test peer, installed by the Maven build
 * into {@code target/node} (system property {@code switchboard.node.dir}).
 *
 * <p>For the HTTP modes {@link #start(Mode)} runs the server on a free port and waits until it listens; for stdio
 * the connector starts the process itself from {@link #stdioSpec()}, and {@link #killStdioProcesses()} kills it.
 */
public final class ServerEverything implements AutoCloseable {

    public enum Mode {
        STDIO("stdio", null), SSE("sse", "/sse"), STREAMABLE_HTTP("streamableHttp", "/mcp");

        private final String argument;
        private final String path;

        Mode(String argument, String path) {
            this.argument = argument;
            this.path = path;
        }
    }

    private static final long LISTEN_TIMEOUT_MILLIS = 20_000;

    private final Mode mode;
    private final int port;
    private Process process;

    private ServerEverything(Mode mode, int port) {
        this.mode = mode;
        this.port = port;
    }

    /** Starts an HTTP-mode server on a free port. */
    public static ServerEverything start(Mode mode) {
        return start(mode, freePort());
    }

    /** Starts an HTTP-mode server on the given port, e.g. to bring a killed backend back at the same URL. */
    public static ServerEverything start(Mode mode, int port) {
        if (mode == Mode.STDIO) {
            throw new IllegalArgumentException("stdio servers are started by the connector; use stdioSpec()");
        }
        ServerEverything server = new ServerEverything(mode, port);
        server.launch();
        return server;
    }

    /** The server's entry script. */
    public static Path entryPoint() {
        String nodeDir = System.getProperty("switchboard.node.dir", "target/node");
        Path script = Paths.get(nodeDir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");
        if (!Files.isRegularFile(script)) {
            throw new IllegalStateException("server-everything not installed at " + script + "; run the Maven build once online");
        }
        return script.toAbsolutePath();
    }

    /** How a connector starts server-everything over stdio. */
    public static BackendSpec stdioSpec() {
        return BackendSpec.stdio("node", List.of(entryPoint().toString(), Mode.STDIO.argument), Map.of());
    }

    /** Kills every stdio server-everything this JVM started (directly or below a child), as a crash would. */
    public static int killStdioProcesses() {
        String script = entryPoint().toString();
        List<ProcessHandle> victims = ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().map(c -> c.contains(script) && c.contains(" stdio")).orElse(false))
                .toList();
        victims.forEach(ProcessHandle::destroyForcibly);
        victims.forEach(p -> p.onExit().orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> p).join());
        return victims.size();
    }

    /** Kills every server-everything this JVM started; for {@code @AfterAll} safety nets. */
    public static void killAll() {
        String script = entryPoint().toString();
        ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().map(c -> c.contains(script)).orElse(false))
                .forEach(ProcessHandle::destroyForcibly);
    }

    public Mode mode() {
        return mode;
    }

    public int port() {
        return port;
    }

    /** The MCP endpoint: {@code /mcp} for streamable HTTP, the SSE stream {@code /sse} for legacy SSE. */
    public String url() {
        return "http://127.0.0.1:" + port + mode.path;
    }

    public BackendSpec spec() {
        BackendSpec.TransportType type = mode == Mode.SSE ? BackendSpec.TransportType.SSE : BackendSpec.TransportType.STREAMABLE_HTTP;
        return BackendSpec.http(type, url(), Map.of());
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** Kills the server abruptly (SIGKILL), as a crash would. */
    public void kill() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Kills the server and starts a fresh one on the same port. */
    public void restart() {
        kill();
        launch();
    }

    @Override
    public void close() {
        kill();
    }

    private void launch() {
        File log = Paths.get("target", "server-everything-" + mode.argument + "-" + port + ".log").toFile();
        ProcessBuilder builder = new ProcessBuilder("node", entryPoint().toString(), mode.argument)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log));
        builder.environment().put("PORT", Integer.toString(port));
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start node", e);
        }
        awaitListening(log);
    }

    private void awaitListening(File log) {
        long deadline = System.currentTimeMillis() + LISTEN_TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("server-everything " + mode + " exited early; see " + log);
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                sleep(50);
            }
        }
        kill();
        throw new IllegalStateException("server-everything " + mode + " did not listen on " + port + " within "
                + LISTEN_TIMEOUT_MILLIS + " ms; see " + log);
    }

    /** A port nobody listens on right now. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
