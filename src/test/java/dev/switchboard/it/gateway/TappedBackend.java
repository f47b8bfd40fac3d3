package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.Names;
import dev.switchboard.it.support.Servers;
import dev.switchboard.testing.McpSchemaValidator.Sender;
import dev.switchboard.testing.ServerEverything;
import dev.switchboard.testing.WireLog;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real server-everything behind {@code src/test/node/backend-tap.mjs}, registered as a shared server of the default
 * tenant: over stdio the gateway starts the tap, which starts server-everything; over Streamable HTTP the tap is a
 * proxy in front of a running one. The tap records every JSON-RPC message between the gateway and the backend, read
 * back here per backend session.
 */
final class TappedBackend implements AutoCloseable {

    private final String name;
    private final long id;
    private final Path records;
    private final ServerEverything http;
    private final Process proxy;

    private TappedBackend(String name, long id, Path records, ServerEverything http, Process proxy) {
        this.name = name;
        this.id = id;
        this.records = records;
        this.http = http;
        this.proxy = proxy;
    }

    /** server-everything over stdio, its stdin and stdout recorded; registered as {@code gw-{label}-{random}}. */
    static TappedBackend stdio(String label) {
        Path records = recordDir(label);
        JsonObjectBuilder server = Json.createObjectBuilder().add("command", "node").add("args", Json.createArrayBuilder()
                .add(tap().toString()).add("stdio").add(records.toString())
                .add("node").add(ServerEverything.entryPoint().toString()).add("stdio"));
        return register(label, server, records, null, null);
    }

    /** server-everything over Streamable HTTP behind the recording proxy; the gateway knows only the proxy. */
    static TappedBackend streamableHttp(String label) {
        Path records = recordDir(label);
        ServerEverything backend = ServerEverything.start(ServerEverything.Mode.STREAMABLE_HTTP);
        int port = ServerEverything.freePort();
        Process proxy;
        try {
            proxy = new ProcessBuilder("node", tap().toString(), "http", Integer.toString(port), backend.url(), records.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(Paths.get("target", "backend-tap-" + port + ".log").toFile()))
                    .start();
        } catch (IOException e) {
            backend.close();
            throw new UncheckedIOException("cannot start the tap", e);
        }
        awaitListening(proxy, port);
        return register(label, Json.createObjectBuilder().add("baseUrl", "http://127.0.0.1:" + port + "/mcp"),
                records, backend, proxy);
    }

    private static TappedBackend register(String label, JsonObjectBuilder server, Path records, ServerEverything http,
                                          Process proxy) {
        String name = Names.unique(Servers.GATEWAY_PREFIX + label);
        long id = Servers.register(Api.adminToken(), server.add("name", name).add("scope", "shared").build());
        return new TappedBackend(name, id, records, http, proxy);
    }

    /** Its gateway name: the prefix of its tools and prompts on /mcp, the {name} of /mcp/servers/{name}. */
    String name() {
        return name;
    }

    /**
     * Every backend session recorded so far (a stdio process, or an HTTP session id), the gateway as client and the
     * backend as server, in the order the tap saw them.
     */
    Map<String, WireLog> sessions() {
        Map<String, WireLog> sessions = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(records)) {
            for (Path file : files.sorted().toList()) {
                for (String line : Files.readAllLines(file)) {
                    if (line.isBlank()) {
                        continue;
                    }
                    JsonObject entry = parse(line);
                    String conn = entry.getString("conn");
                    WireLog log = sessions.computeIfAbsent(conn, c -> new WireLog("backend " + name + " (" + c + ")"));
                    Sender sender = "gateway".equals(entry.getString("from")) ? Sender.CLIENT : Sender.SERVER;
                    // a line that is no JSON is recorded as {"raw": ...}: as a message it fails the schema check
                    log.add(sender, entry.containsKey("message") && entry.get("message") instanceof JsonObject m ? m
                            : Json.createObjectBuilder().add("notJsonRpc", entry.get(entry.containsKey("raw") ? "raw" : "message")).build());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sessions;
    }

    /** The messages with the method the gateway has sent this backend so far, in all sessions. */
    List<JsonObject> sent(String method) {
        return sessions().values().stream().flatMap(s -> s.entries().stream())
                .filter(e -> e.sender() == Sender.CLIENT && method.equals(e.method())).map(WireLog.Entry::message).toList();
    }

    /** Waits (bounded) until the gateway has sent this backend more than {@code before} messages with the method. */
    void awaitSent(String method, int before, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (sent(method).size() <= before) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("the gateway sent " + name + " no further " + method + " within " + timeout);
            }
            try {
                TimeUnit.MILLISECONDS.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", e);
            }
        }
    }

    /**
     * What the gateway sent this backend that is not valid in the version the backend negotiated (its answer to
     * {@code initialize}), and the sessions checked.
     */
    List<String> backendSideProblems() {
        List<String> problems = new ArrayList<>();
        for (WireLog session : sessions().values()) {
            String version = session.entries().stream()
                    .filter(e -> e.sender() == Sender.SERVER && e.message().get("result") instanceof JsonObject r
                            && r.containsKey("protocolVersion") && r.containsKey("serverInfo"))
                    .map(e -> e.message().getJsonObject("result").getString("protocolVersion")).findFirst().orElse(null);
            if (version == null) {
                problems.add(session.edge() + ": no initialize answer recorded, so no version to check against: " + session);
                continue;
            }
            problems.addAll(session.problems(version, Sender.CLIENT));
        }
        return problems;
    }

    @Override
    public void close() {
        Api.delete("/api/mcp-servers/" + id, Api.adminToken()).expect(204);
        if (proxy != null) {
            proxy.destroyForcibly();
        }
        if (http != null) {
            http.close();
        }
    }

    private static Path recordDir(String label) {
        try {
            Files.createDirectories(Paths.get("target"));
            return Files.createTempDirectory(Paths.get("target").toAbsolutePath(), "backend-tap-" + label + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The tap, copied next to the installed node_modules like the other node peers. */
    private static Path tap() {
        Path nodeDir = Paths.get(System.getProperty("switchboard.node.dir", "target/node")).toAbsolutePath();
        Path script = nodeDir.resolve("backend-tap.mjs");
        try {
            Files.copy(Paths.get("src/test/node/backend-tap.mjs"), script, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return script;
    }

    private static void awaitListening(Process process, int port) {
        long deadline = System.currentTimeMillis() + 20_000;
        while (System.currentTimeMillis() < deadline && process.isAlive()) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                try {
                    TimeUnit.MILLISECONDS.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
        process.destroyForcibly();
        throw new IllegalStateException("the backend tap did not listen on " + port);
    }

    private static JsonObject parse(String line) {
        try (var reader = Json.createReader(new StringReader(line))) {
            return reader.readObject();
        }
    }
}
