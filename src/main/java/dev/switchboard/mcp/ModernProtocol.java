package dev.switchboard.mcp;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * MCP 2026-07-28, the first "modern" (stateless) revision: no {@code initialize} and no session; every request
 * carries its protocol version and the client's capabilities in {@code params._meta}, and over HTTP mirrors its
 * method and name in headers; every result says its {@code resultType}. The names here are the specification's.
 */
public final class ModernProtocol {

    public static final String VERSION = "2026-07-28";
    /** The modern revisions spoken, newest first. */
    public static final List<String> VERSIONS = List.of(VERSION);

    public static final String PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
    public static final String CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";
    public static final String CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo";
    public static final String LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel";
    public static final String SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";
    /** The prefix of every {@code _meta} key the specification reserves for itself. */
    public static final String RESERVED_META_PREFIX = "io.modelcontextprotocol/";

    public static final String METHOD_HEADER = "Mcp-Method";
    public static final String NAME_HEADER = "Mcp-Name";

    public static final String RESULT_TYPE = "resultType";
    public static final String COMPLETE = "complete";
    public static final String TTL_MS = "ttlMs";
    public static final String CACHE_SCOPE = "cacheScope";

    public static final String DISCOVER = "server/discover";
    /** Requests whose name or URI travels in {@code Mcp-Name}, with the body member it mirrors. */
    public static final Map<String, String> NAMED = Map.of("tools/call", "name",
            "prompts/get", "name", "resources/read", "uri");
    /** Results that carry caching hints ({@code CacheableResult}). */
    public static final Set<String> CACHEABLE = Set.of("tools/list", "prompts/list", "resources/list",
            "resources/templates/list", "resources/read");
    /** Session-era requests this revision removed. */
    public static final Set<String> REMOVED = Set.of("initialize", "ping", "logging/setLevel", "resources/subscribe",
            "resources/unsubscribe");
    /** The values of {@code LoggingLevel}. */
    public static final Set<String> LOG_LEVELS = Set.of("debug", "info", "notice", "warning", "error", "critical",
            "alert", "emergency");

    private ModernProtocol() {
    }

    /** Whether a version names a modern revision: anything the session era (up to 2025-11-25) does not know. */
    public static boolean isModern(String version) {
        return version != null && !ProtocolVersions.SUPPORTED.contains(version);
    }
}
