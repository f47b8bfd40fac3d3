package dev.switchboard.workspace;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The chat API's {@code /mcp_workspaces/{session_id}}: one directory per session under a configurable root, created on
 * first use. Sessions belong to users, so the directory is {@code <root>/<user key>/<session id>}: two users who
 * pick the same session id never share files. The directory's modification time is its last use (refreshed on every
 * use), which the expiry reads, so it works for every instance sharing the root.
 */
@ApplicationScoped
public class Workspaces {

    private static final Logger LOG = Logger.getLogger(Workspaces.class.getName());
    private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,127}");

    @Inject
    @ConfigProperty(name = "switchboard.data-dir", defaultValue = "data")
    String dataDir;

    /** Empty: {@code <data dir>/mcp_workspaces}. */
    @Inject
    @ConfigProperty(name = "switchboard.workspace.root")
    Optional<String> configuredRoot;

    @Inject
    @ConfigProperty(name = "switchboard.workspace.ttl", defaultValue = "P1D")
    Duration ttl;

    @Inject
    @ConfigProperty(name = "switchboard.workspace.max-file-bytes", defaultValue = "1048576")
    long maxFileBytes;

    @Inject
    @ConfigProperty(name = "switchboard.workspace.max-files", defaultValue = "1000")
    int maxFiles;

    public Path root() {
        return configuredRoot.filter(r -> !r.isBlank()).map(Path::of).orElse(Path.of(dataDir, "mcp_workspaces"))
                .toAbsolutePath().normalize();
    }

    /** The session's workspace, created if needed, its last use set to now. */
    public Workspace open(String tenant, String subject, String sessionId) {
        Path directory = root().resolve(hash(tenant + "\0" + subject).substring(0, 16)).resolve(directoryName(sessionId));
        try {
            touch(directory);
        } catch (NoSuchFileException expiredMeanwhile) {
            // the expiry deleted it between creating and touching: once more makes it new
            try {
                touch(directory);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the workspace " + directory, e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the workspace " + directory, e);
        }
        return new Workspace(directory, new WorkspaceLimits(maxFileBytes, maxFiles));
    }

    private static void touch(Path directory) throws IOException {
        Files.createDirectories(directory);
        Files.setLastModifiedTime(directory, FileTime.from(Instant.now()));
    }

    /** Deletes the workspaces not used for longer than the TTL; returns how many. */
    public int deleteExpired(Instant now) {
        Path root = root();
        if (!Files.isDirectory(root)) {
            return 0;
        }
        int deleted = 0;
        try (Stream<Path> users = Files.list(root)) {
            for (Path user : users.filter(Files::isDirectory).toList()) {
                try (Stream<Path> sessions = Files.list(user)) {
                    for (Path session : sessions.toList()) {
                        if (Files.getLastModifiedTime(session, LinkOption.NOFOLLOW_LINKS).toInstant().plus(ttl).isBefore(now)) {
                            deleteTree(session);
                            deleted++;
                        }
                    }
                }
                deleteIfEmpty(user);
            }
        } catch (IOException e) {
            LOG.warning(() -> "Workspace expiry under " + root + " stopped: " + e);
        }
        return deleted;
    }

    /** A session id that is a plain file name is used as is (as the chat API's examples show); any other is hashed. */
    static String directoryName(String sessionId) {
        return PLAIN_NAME.matcher(sessionId).matches() ? sessionId : "s-" + hash(sessionId).substring(0, 32);
    }

    /** A user without workspaces leaves no directory behind; one opened meanwhile is not empty and stays. */
    private static void deleteIfEmpty(Path user) {
        try {
            Files.delete(user);
        } catch (IOException notEmpty) {
            // it still holds workspaces (or just got one): it stays
        }
    }

    /** Removes a tree without following links out of it. */
    private static void deleteTree(Path top) throws IOException {
        try (Stream<Path> walk = Files.walk(top)) {
            for (Path path : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    private static String hash(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always there", e);
        }
    }
}
