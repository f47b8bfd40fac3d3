package dev.switchboard.it.cluster;

import dev.switchboard.it.support.Api;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Members A and B of one cluster, and haproxy in front of both: started once for every cluster IT of the run (the
 * first class that registers this extension starts them, JUnit's root store stops them after the last test). The
 * build created the servers ({@code switchboard-cluster-a}, {@code -b}: the pom's {@code cluster-*-create}); this
 * makes their database afresh ({@code it.cluster.db} on the MariaDB of 127.0.0.1:3306), starts both, waits until each
 * sees two members, and writes haproxy's configuration under {@code target/cluster}.
 */
public final class ClusterMembers implements BeforeAllCallback {

    /** One way in: a member's own port, or the proxy. */
    public record Member(String name, String base) {

        public Api.Reply get(String path, String token) {
            return Api.sendTo(base, "GET", path, token, null, null);
        }

        public Api.Reply post(String path, String token, JsonValue body) {
            return Api.sendTo(base, "POST", path, token, "application/json", body);
        }

        public Api.Reply put(String path, String token, JsonValue body) {
            return Api.sendTo(base, "PUT", path, token, "application/json", body);
        }

        public String login(String username, String password) {
            return post("/api/auth/token", null, Json.createObjectBuilder().add("username", username)
                    .add("password", password).build()).expect(200).json().getString("access_token");
        }

        @Override
        public String toString() {
            return name;
        }
    }

    public static final Member A = new Member("A", "http://127.0.0.1:" + System.getProperty("it.cluster.a.port", "18780"));
    public static final Member B = new Member("B", "http://127.0.0.1:" + System.getProperty("it.cluster.b.port", "18781"));
    public static final Member PROXY = new Member("proxy", "http://127.0.0.1:" + System.getProperty("it.cluster.proxy.port", "18782"));
    /** Each way in, for tests that must hold through all of them. */
    public static final List<Member> ALL = List.of(A, B, PROXY);
    static final Path WLP = Path.of("target/liberty/wlp");
    /** The Liberty servers of members A and B (created by the build). */
    static final String SERVER_A = "switchboard-cluster-a";
    static final String SERVER_B = "switchboard-cluster-b";
    private static final String MARIADB = System.getProperty("it.mariadb.url", "jdbc:mysql://127.0.0.1:3306/");
    /** The members' database on that MariaDB (the pom's {@code it.cluster.db}). */
    private static final String DATABASE = System.getProperty("it.cluster.db", "switchboard_cluster_18780");
    private static final Path DIR = Path.of(System.getProperty("it.cluster.dir", "target/cluster"));
    /** Generous: on a loaded 2-core machine a Liberty start has taken minutes. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(420);
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(ClusterMembers.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        assumeFalse(MARIADB.isBlank(), "-Dit.mariadb.url= : no MariaDB for the cluster's database");
        context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent("running", key -> start(), Running.class);
    }

    /** What to stop after the last test. */
    private record Running(Process proxy) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() throws Exception {
            proxy.destroy();
            proxy.waitFor(10, TimeUnit.SECONDS);
            stopMembers();
        }
    }

    private static void stopMembers() throws IOException, InterruptedException {
        Process a = server("stop", SERVER_A, Map.of());
        Process b = server("stop", SERVER_B, Map.of());
        a.waitFor(120, TimeUnit.SECONDS);
        b.waitFor(120, TimeUnit.SECONDS);
    }

    private static Running start() {
        try {
            freshDatabase();
            Files.createDirectories(DIR);
            Instant started = Instant.now();
            // both at once: each member's start is mostly its own work, and their Hazelcast members find each other
            Process a = server("start", SERVER_A, Map.of());
            Process b = server("start", SERVER_B, Map.of());
            finished(a, "server start " + SERVER_A);
            finished(b, "server start " + SERVER_B);
            awaitClusterOf(A, 2);
            Duration aReady = Duration.between(started, Instant.now());
            awaitClusterOf(B, 2);
            Process proxy = haproxy();
            awaitReady(PROXY);
            System.out.println("Cluster of A and B behind haproxy ready in " + Duration.between(started, Instant.now()).toSeconds()
                    + " s (A saw both members after " + aReady.toSeconds() + " s); " + startFigures(SERVER_A) + "; "
                    + startFigures(SERVER_B));
            return new Running(proxy);
        } catch (Exception | AssertionError e) {
            AssertionError failure = new AssertionError("The cluster did not start: " + (e instanceof AssertionError ? e.getMessage() : e) + "\n"
                    + new MemberLog(SERVER_A).whatMatters() + "\n" + new MemberLog(SERVER_B).whatMatters(), e);
            try {
                stopMembers();
            } catch (Exception stopFailed) {
                failure.addSuppressed(stopFailed);
            }
            throw failure;
        }
    }

    /** The cluster's database, dropped and created again: every run starts from an empty schema. */
    private static void freshDatabase() throws Exception {
        try (Connection c = DriverManager.getConnection(MARIADB, "root", "")) {
            c.createStatement().execute("DROP DATABASE IF EXISTS " + DATABASE);
            c.createStatement().execute("CREATE DATABASE " + DATABASE + " CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci");
        }
    }

    /**
     * A statement on the cluster's database, as the tests look behind the members: the first column of the first row
     * of a query ({@code select ...}; null without a row), or the number of rows another statement changed.
     */
    static String database(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(MARIADB + DATABASE, "root", "")) {
            if (!sql.startsWith("select")) {
                return String.valueOf(c.createStatement().executeUpdate(sql));
            }
            try (ResultSet rs = c.createStatement().executeQuery(sql)) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** haproxy in the foreground as a child of this JVM: round robin over A and B, no stickiness. */
    private static Process haproxy() throws IOException {
        Path config = DIR.resolve("haproxy.cfg");
        Files.writeString(config, String.join("\n",
                "# generated by it.cluster.ClusterMembers: plain round robin over both members, no stickiness",
                "global",
                "    maxconn 512",
                "defaults",
                "    mode http",
                "    option http-server-close",
                "    timeout connect 2s",
                "    timeout client 120s",
                "    timeout server 120s",
                "frontend cluster",
                "    bind 127.0.0.1:" + port(PROXY),
                "    default_backend members",
                "backend members",
                "    balance roundrobin",
                "    server a 127.0.0.1:" + port(A),
                "    server b 127.0.0.1:" + port(B),
                ""));
        return new ProcessBuilder("haproxy", "-db", "-f", config.toString())
                .redirectErrorStream(true).redirectOutput(DIR.resolve("haproxy.log").toFile()).start();
    }

    /** Runs {@code server <action> <name>} of the build's Liberty with these environment variables added. */
    static Process server(String action, String name, Map<String, String> environment) throws IOException {
        Files.createDirectories(DIR);
        ProcessBuilder builder = new ProcessBuilder(WLP.resolve("bin/server").toString(), action, name)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(DIR.resolve(name + ".out").toFile()));
        builder.environment().putAll(environment);
        return builder.start();
    }

    static void finished(Process process, String what) throws InterruptedException {
        assertTrue(process.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS), what + " took too long");
        assertEquals(0, process.exitValue(), what);
    }

    /**
     * Waits until the member is ready and its readiness says it sees {@code members} members; fails at once when the
     * member's log says its application will not start (refused, failed, or the server stopping).
     */
    static void awaitClusterOf(Member member, int members) throws InterruptedException {
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        String last = "no answer";
        MemberLog log = serverOf(member).map(MemberLog::new).orElse(null);
        while (Instant.now().isBefore(deadline)) {
            if (log != null && log.hopeless().isPresent()) {
                throw new AssertionError(member + " will not start: " + log.hopeless().get());
            }
            try {
                Api.Reply ready = member.get("/health/ready", null);
                last = ready.text();
                if (ready.status() == 200 && clusterCheck(ready.text()).getJsonObject("data").getInt("members") == members) {
                    return;
                }
            } catch (AssertionError notListening) {
                last = notListening.getMessage();
            }
            Thread.sleep(500);
        }
        throw new AssertionError(member + " did not see " + members + " members within " + START_TIMEOUT + ": " + last);
    }

    private static void awaitReady(Member member) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        while (Instant.now().isBefore(deadline)) {
            try {
                if (member.get("/health/ready", null).status() == 200) {
                    return;
                }
            } catch (AssertionError notListening) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new AssertionError(member + " did not answer within 30 s");
    }

    /** The readiness check named {@code cluster}. */
    static JsonObject clusterCheck(String readiness) {
        try (var reader = Json.createReader(new StringReader(readiness))) {
            return reader.readObject().getJsonArray("checks").getValuesAs(JsonObject.class).stream()
                    .filter(check -> check.getString("name").equals("cluster")).findFirst()
                    .orElseThrow(() -> new AssertionError("no cluster check in " + readiness));
        }
    }

    /** The last 40 lines of the server's {@code messages.log}, Liberty's JSON lines rendered as {@code time level message}. */
    static String logTail(String server) {
        MemberLog log = new MemberLog(server);
        return Files.exists(log.file()) ? log.tail(40) : "(no " + log.file() + ")";
    }

    /** The Liberty server behind a member's own port; empty for the proxy. */
    static Optional<String> serverOf(Member member) {
        return member == A ? Optional.of(SERVER_A) : member == B ? Optional.of(SERVER_B) : Optional.empty();
    }

    /** What the member's log says its start took: {@code switchboard-cluster-a: server 52.4 s, application 71.8 s}. */
    private static String startFigures(String server) {
        List<String> lines = new MemberLog(server).lines();
        return server + ": " + lines.stream().map(ClusterMembers::startFigure).filter(Objects::nonNull)
                .collect(Collectors.joining(", "));
    }

    private static String startFigure(String line) {
        Matcher server = Pattern.compile("CWWKF0011I: .* started in ([0-9.]+) seconds").matcher(line);
        if (server.find()) {
            return "server " + server.group(1) + " s";
        }
        Matcher application = Pattern.compile("CWWKZ0001I: Application \\S+ started in ([0-9.]+) seconds").matcher(line);
        return application.find() ? "application " + application.group(1) + " s" : null;
    }

    private static String port(Member member) {
        return member.base().substring(member.base().lastIndexOf(':') + 1);
    }
}
