package dev.switchboard.gateway;

import dev.switchboard.mcp.ModernProtocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The protocol versions the gateway speaks to its clients (docs/gateway.md, section "Older clients"). */
public final class ClientVersions {

    public static final String LATEST = "2025-11-25";
    /** What a request without {@code MCP-Protocol-Version} is taken to speak. */
    public static final String WITHOUT_HEADER = "2025-03-26";
    public static final String LEGACY = "2024-11-05";

    private final List<String> supported;

    public ClientVersions(boolean legacyHttpSse) {
        List<String> versions = new ArrayList<>(List.of(LATEST, "2025-06-18", WITHOUT_HEADER));
        if (legacyHttpSse) {
            versions.add(LEGACY);
        }
        this.supported = List.copyOf(versions);
    }

    /** The session-era versions, which {@code initialize} negotiates. */
    public List<String> supported() {
        return supported;
    }

    /** Every version served: the stateless era's (MCP 2026-07-28), then the session era's; newest first. */
    public List<String> allSupported() {
        List<String> all = new ArrayList<>(ModernProtocol.VERSIONS);
        all.addAll(supported);
        return List.copyOf(all);
    }

    /** The version a request speaks given its header; empty when the header names one we do not support. */
    public Optional<String> fromHeader(String header) {
        if (header == null || header.isBlank()) {
            return Optional.of(WITHOUT_HEADER);
        }
        String version = header.strip();
        return supported.contains(version) ? Optional.of(version) : Optional.empty();
    }

    /** The answer to {@code initialize}: the client's version when we speak it, else our latest. */
    public String negotiate(String requested) {
        return supported.contains(requested) ? requested : LATEST;
    }
}
