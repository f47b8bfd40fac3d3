package dev.switchboard.it.cluster;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the image holds, without Docker (no engine runs here): a Liberty server assembled from the Dockerfile's own
 * {@code COPY} lines ({@code /config/...} becomes the server's directory) starts on its configuration from the
 * environment alone, and answers ready. It does not show what only the image does ({@code features.sh} installing
 * the features into the kernel-slim runtime, the base image's Java): the build's Liberty already has every feature.
 */
class ImageLayoutIT {

    private static final String SERVER = "switchboard-image";
    private static final int PORT = Integer.parseInt(System.getProperty("it.cluster.lone.port", "18785")) + 2;

    @Test
    void aServerLaidOutAsTheImageStartsOnItsEnvironmentAlone() throws Exception {
        Path server = ClusterMembers.WLP.resolve("usr/servers/" + SERVER);
        deleteTree(server);
        List<String> copied = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("Dockerfile"))) {
            if (!line.startsWith("COPY ")) {
                continue;
            }
            String[] words = line.split(" ");
            String source = words[words.length - 2];
            String target = words[words.length - 1];
            if (!target.startsWith("/config/")) {
                continue;
            }
            Path from = Path.of(source);
            if (!Files.exists(from) && source.startsWith("target/liberty/wlp/usr/servers/switchboard/")) {
                // the build's dev server is not created by the IT build: its drivers are the IT server's
                from = Path.of(source.replace("/servers/switchboard/", "/servers/switchboard-it/"));
            }
            copy(from, server.resolve(target.substring("/config/".length())));
            copied.add(target);
        }
        assertEquals(List.of("/config/server.xml", "/config/jvm.options", "/config/lib/jdbc/", "/config/apps/switchboard.war"),
                copied, "what the Dockerfile puts into the server's configuration");

        Path data = Path.of("target/image-data").toAbsolutePath();
        deleteTree(data);
        ClusterMembers.finished(ClusterMembers.server("start", SERVER, Map.of("HTTP_PORT", String.valueOf(PORT),
                "SWITCHBOARD_DATA_DIR", data.toString(), "SWITCHBOARD_ADMIN_PASSWORD", "image-admin-password")),
                "server start " + SERVER);
        try {
            ClusterMembers.Member image = new ClusterMembers.Member("image", "http://127.0.0.1:" + PORT);
            Instant deadline = Instant.now().plusSeconds(420);
            int status = 0;
            while (Instant.now().isBefore(deadline) && status != 200) {
                try {
                    status = image.get("/health/ready", null).status();
                } catch (AssertionError notYet) {
                    status = 0;
                }
                Thread.sleep(500);
            }
            assertEquals(200, status, "ready on the environment alone:\n" + ClusterMembers.logTail(SERVER));
            assertTrue(image.login("admin", "image-admin-password").length() > 20, "the admin of SWITCHBOARD_ADMIN_PASSWORD signs in");
            assertTrue(Files.exists(data.resolve("switchboard.mv.db")), "H2 in SWITCHBOARD_DATA_DIR");
        } finally {
            ClusterMembers.server("stop", SERVER, Map.of()).waitFor(120, TimeUnit.SECONDS);
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        if (Files.isDirectory(from)) {
            Files.createDirectories(to);
            try (Stream<Path> files = Files.list(from)) {
                for (Path file : files.toList()) {
                    Files.copy(file, to.resolve(file.getFileName().toString()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } else {
            Files.createDirectories(to.getParent());
            Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
