package dev.switchboard.mcp;

import java.util.List;

/** The MCP protocol revisions this client speaks, newest first. */
public final class ProtocolVersions {

    public static final String LATEST = "2025-11-25";
    public static final List<String> SUPPORTED = List.of(LATEST, "2025-06-18", "2025-03-26", "2024-11-05");

    private ProtocolVersions() {
    }

    public static boolean isSupported(String version) {
        return SUPPORTED.contains(version);
    }
}
