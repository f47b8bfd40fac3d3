package dev.switchboard.backend.tools;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * LLM-facing function names for MCP tools (the MCP client system): {@code mcp__{server}__{tool}}, every character
 * outside {@code [A-Za-z0-9_-]} replaced by {@code _}, at most 63 characters. A name that must be cut
 * keeps a stable hash suffix of the full name so two long names never collapse into one.
 */
public final class ToolNames {

    public static final int MAX_LENGTH = 63;
    private static final String PREFIX = "mcp__";
    private static final String SEPARATOR = "__";
    private static final int HASH_LENGTH = 8;

    private ToolNames() {
    }

    public static String sanitize(String part) {
        return part.replaceAll("[^A-Za-z0-9_-]", "_");
    }

    /** The display name, before any collision handling. */
    public static String displayName(String serverName, String toolName) {
        String full = PREFIX + sanitize(serverName) + SEPARATOR + sanitize(toolName);
        if (full.length() <= MAX_LENGTH) {
            return full;
        }
        return withHash(full, serverName + '\0' + toolName);
    }

    /** A display name made unique by a hash of {@code discriminator}, for when the plain one is taken. */
    public static String disambiguated(String serverName, String toolName, String discriminator) {
        String full = PREFIX + sanitize(serverName) + SEPARATOR + sanitize(toolName);
        return withHash(full, discriminator);
    }

    private static String withHash(String name, String hashInput) {
        String hash = sha256Hex(hashInput).substring(0, HASH_LENGTH);
        int keep = Math.min(name.length(), MAX_LENGTH - HASH_LENGTH - 1);
        return name.substring(0, keep) + "_" + hash;
    }

    private static String sha256Hex(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 missing from the JDK", e);
        }
    }
}
