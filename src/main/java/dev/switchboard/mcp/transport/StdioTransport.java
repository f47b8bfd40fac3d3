package dev.switchboard.mcp.transport;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.client.BackendSpec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * MCP over a child process: newline-delimited JSON on stdin/stdout. The child's stderr goes to a
 * per-backend logger and never into the protocol stream.
 */
public final class StdioTransport implements McpTransport {

    private static final Logger LOG = Logger.getLogger(StdioTransport.class.getName());
    private static final long GRACEFUL_EXIT_MILLIS = 500;
    private static final long DESTROY_WAIT_MILLIS = 1_000;

    private final BackendSpec spec;
    private final Executor executor;
    private final Logger stderrLog;
    private final Object writeLock = new Object();
    private volatile Process process;
    private volatile OutputStream stdin;
    private volatile boolean closed;
    /** The child's last stderr line, quoted when it dies: usually the reason. */
    private volatile String lastStderrLine = "";

    public StdioTransport(BackendSpec spec, Executor executor) {
        this.spec = spec;
        this.executor = executor;
        this.stderrLog = Logger.getLogger("dev.switchboard.mcp.backend.stdio." + commandName(spec.command()));
    }

    @Override
    public void start(Listener listener, Duration timeout) throws McpException {
        List<String> command = new ArrayList<>();
        command.add(spec.command());
        command.addAll(spec.args());
        ProcessBuilder builder = new ProcessBuilder(command);
        // the child inherits our environment; the backend's own variables win
        builder.environment().putAll(spec.env());
        if (spec.workingDir() != null) {
            builder.directory(spec.workingDir().toFile());
        }
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new McpException(McpException.Kind.CONNECT_REFUSED,
                    "cannot start command '" + spec.command() + "': " + e.getMessage(), e);
        }
        stdin = process.getOutputStream();
        try {
            executor.execute(() -> readStdout(listener));
            executor.execute(this::readStderr);
        } catch (RejectedExecutionException e) {
            close();
            throw new McpException(McpException.Kind.CONNECT_REFUSED, "no thread available to read the process output", e);
        }
    }

    @Override
    public CompletableFuture<Void> send(JsonRpcMessage message, Duration timeout) {
        if (closed || stdin == null) {
            return CompletableFuture.failedFuture(new McpException(McpException.Kind.CLOSED, "process is not running"));
        }
        byte[] line = (message.toJson() + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            synchronized (writeLock) {
                stdin.write(line);
                stdin.flush();
            }
            return CompletableFuture.completedFuture(null);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new McpException(McpException.Kind.CLOSED,
                    "cannot write to process '" + spec.command() + "': " + e.getMessage(), e));
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Process p = process;
        if (p == null) {
            return;
        }
        try {
            p.getOutputStream().close();
            if (!p.waitFor(GRACEFUL_EXIT_MILLIS, TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
                if (!p.waitFor(DESTROY_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                }
            }
        } catch (IOException e) {
            p.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
        }
    }

    private void readStdout(Listener listener) {
        Process p = process;
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                try {
                    listener.onMessage(JsonRpcMessage.parseFromPeer(line));
                } catch (McpException e) {
                    // some servers print banners on stdout; skip the line rather than kill the session
                    String skipped = line;
                    LOG.warning(() -> "ignoring non-JSON-RPC line from '" + spec.command() + "': " + JsonRpcMessage.excerpt(skipped));
                }
            }
        } catch (IOException e) {
            LOG.log(Level.FINE, "stdout of '" + spec.command() + "' failed", e);
        }
        listener.onClosed(new McpException(McpException.Kind.CLOSED, exitDescription(p)));
    }

    private void readStderr() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                lastStderrLine = line;
                String logged = line;
                stderrLog.info(() -> logged);
            }
        } catch (IOException e) {
            stderrLog.log(Level.FINE, "stderr closed", e);
        }
    }

    private String exitDescription(Process p) {
        if (closed) {
            return "process closed by client";
        }
        try {
            if (p.waitFor(GRACEFUL_EXIT_MILLIS, TimeUnit.MILLISECONDS)) {
                String reason = lastStderrLine.isBlank() ? "" : " (last stderr: " + JsonRpcMessage.excerpt(lastStderrLine) + ")";
                return "process '" + spec.command() + "' exited with code " + p.exitValue() + reason;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "process '" + spec.command() + "' closed its stdout";
    }

    private static String commandName(String command) {
        String name = command == null ? "unknown" : command.replace('\\', '/');
        return name.substring(name.lastIndexOf('/') + 1);
    }
}
