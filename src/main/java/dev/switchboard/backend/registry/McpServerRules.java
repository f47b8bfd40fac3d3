package dev.switchboard.backend.registry;

import dev.switchboard.backend.builtin.BuiltinServers;
import dev.switchboard.platform.ApiException;
import dev.switchboard.security.CurrentUser;
import dev.switchboard.security.SecretMasker;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** Validates an {@link McpServerInput} and applies it to a server; header and env values are staged for {@link ServerSecrets#seal}. */
@ApplicationScoped
public class McpServerRules {

    private static final Pattern NAME = Pattern.compile("[^\\p{Cntrl}]{1,64}");
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
    /** Headers the HTTP client sets itself or the MCP transport owns. */
    private static final Set<String> RESERVED_HEADERS = Set.of("host", "content-length", "connection", "upgrade",
            "expect", "transfer-encoding", "mcp-session-id", "mcp-protocol-version", "accept", "content-type");
    private static final int MAX_ARGS = 64;
    private static final int MAX_ENTRIES = 64;
    private static final int MAX_VALUE_LENGTH = 8192;
    private static final int MAX_TOOL_LIST = 1000;

    @Inject
    ServerSecrets secrets;

    @Inject
    SecretMasker masker;

    @Inject
    BuiltinServers builtins;

    @Inject
    @ConfigProperty(name = "switchboard.mcp.default-timeout", defaultValue = "60")
    int defaultTimeout;

    @Inject
    @ConfigProperty(name = "switchboard.mcp.max-timeout", defaultValue = "600")
    int maxTimeout;

    void applyNew(McpServer server, McpServerInput in, CurrentUser user) {
        if (in.name() == null) {
            throw ApiException.badRequest("missing_field", "'name' is required");
        }
        if (in.command() == null && in.baseUrl() == null) {
            throw ApiException.badRequest("missing_field", "Either 'baseUrl' (sse, streamableHttp) or 'command' (stdio, builtin) is required");
        }
        TransportKind type = in.type() != null ? parseType(in.type()) : TransportKind.infer(in.command(), in.baseUrl());
        server.setType(type);
        server.setActive(in.isActive() == null || in.isActive());
        server.setTimeoutSeconds(defaultTimeout);
        server.setScope(McpServer.Scope.USER);
        apply(server, in, user, Map.of(), Map.of());
    }

    void applyChange(McpServer server, McpServerInput in, CurrentUser user) {
        if (in.type() != null) {
            server.setType(parseType(in.type()));
        }
        if (in.isActive() != null) {
            server.setActive(in.isActive());
        }
        Map<String, String> oldHeaders = secrets.headers(server);
        Map<String, String> oldEnv = secrets.env(server);
        apply(server, in, user, oldHeaders, oldEnv);
    }

    private void apply(McpServer server, McpServerInput in, CurrentUser user,
                       Map<String, String> oldHeaders, Map<String, String> oldEnv) {
        if (in.name() != null) {
            String name = in.name().trim();
            if (!NAME.matcher(name).matches()) {
                throw ApiException.badRequest("invalid_name", "'name' must be 1 to 64 characters without control characters");
            }
            server.setName(name);
        }
        if (in.scope() != null) {
            server.setScope(parseScope(in.scope(), user));
        }
        if (in.timeout() != null) {
            if (in.timeout() < 1 || in.timeout() > maxTimeout) {
                throw ApiException.badRequest("invalid_timeout", "'timeout' must be between 1 and " + maxTimeout + " seconds");
            }
            server.setTimeoutSeconds(in.timeout());
        }
        if (in.disabledTools() != null) {
            server.setDisabledToolsJson(McpServerJson.writeList(toolList("disabledTools", in.disabledTools())));
        }
        if (in.autoApproveTools() != null) {
            server.setAutoApproveToolsJson(McpServerJson.writeList(toolList("autoApproveTools", in.autoApproveTools())));
        }
        if (server.getType() == TransportKind.STDIO) {
            applyStdio(server, in, user, oldEnv);
        } else if (server.getType() == TransportKind.BUILTIN) {
            applyBuiltin(server, in, user);
        } else {
            applyHttp(server, in, oldHeaders);
        }
    }

    private void applyStdio(McpServer server, McpServerInput in, CurrentUser user, Map<String, String> oldEnv) {
        if (!user.isAdmin()) {
            throw ApiException.forbidden("stdio_requires_admin",
                    "Only admins may register stdio servers: they run a command on the Switchboard host");
        }
        if (in.baseUrl() != null || in.headers() != null) {
            throw ApiException.badRequest("invalid_field", "'baseUrl' and 'headers' do not apply to stdio servers");
        }
        if (in.command() != null) {
            String command = in.command().trim();
            if (command.isEmpty() || command.length() > 1024 || command.chars().anyMatch(Character::isISOControl)) {
                throw ApiException.badRequest("invalid_command", "'command' must be 1 to 1024 characters without control characters");
            }
            server.setCommand(command);
        }
        if (server.getCommand() == null) {
            throw ApiException.badRequest("missing_field", "'command' is required for stdio servers");
        }
        if (in.args() != null) {
            if (in.args().size() > MAX_ARGS || in.args().stream().anyMatch(a -> a.length() > MAX_VALUE_LENGTH || a.indexOf('\0') >= 0)) {
                throw ApiException.badRequest("invalid_args", "'args' allows at most " + MAX_ARGS
                        + " strings of at most " + MAX_VALUE_LENGTH + " characters");
            }
            server.setArgsJson(McpServerJson.writeList(in.args()));
        }
        if (in.env() != null) {
            Map<String, String> env = keepMaskedSecrets(in.env(), oldEnv);
            env.forEach((k, v) -> {
                if (!ENV_NAME.matcher(k).matches()) {
                    throw ApiException.badRequest("invalid_env", "Environment variable name '" + k + "' is not valid");
                }
            });
            checkSize("env", env);
            server.stageEnv(env);
        }
        server.setBaseUrl(null);
        server.setHeadersJson(null);
    }

    private void applyBuiltin(McpServer server, McpServerInput in, CurrentUser user) {
        if (!user.isAdmin()) {
            throw ApiException.forbidden("builtin_requires_admin",
                    "Only admins may register built-in servers: they run inside Switchboard, next to its data");
        }
        if (in.baseUrl() != null || in.headers() != null || in.args() != null || in.env() != null) {
            throw ApiException.badRequest("invalid_field", "'baseUrl', 'headers', 'args' and 'env' do not apply to builtin servers");
        }
        if (in.command() != null) {
            server.setCommand(in.command().trim());
        }
        if (server.getCommand() == null || builtins.find(server.getCommand()).isEmpty()) {
            throw ApiException.badRequest(server.getCommand() == null ? "missing_field" : "invalid_command",
                    "'command' must name a built-in server: one of " + String.join(", ", builtins.names()));
        }
        server.setArgsJson(null);
        server.setEnvJson(null);
        server.setBaseUrl(null);
        server.setHeadersJson(null);
    }

    private void applyHttp(McpServer server, McpServerInput in, Map<String, String> oldHeaders) {
        if (in.command() != null || in.args() != null || in.env() != null) {
            throw ApiException.badRequest("invalid_field", "'command', 'args' and 'env' apply only to stdio servers");
        }
        if (in.baseUrl() != null) {
            server.setBaseUrl(checkUrl(in.baseUrl().trim()));
        }
        if (server.getBaseUrl() == null) {
            throw ApiException.badRequest("missing_field", "'baseUrl' is required for " + server.getType().wireName() + " servers");
        }
        if (in.headers() != null) {
            Map<String, String> headers = keepMaskedSecrets(in.headers(), oldHeaders);
            headers.forEach((k, v) -> {
                if (!HEADER_NAME.matcher(k).matches() || RESERVED_HEADERS.contains(k.toLowerCase(Locale.ROOT))) {
                    throw ApiException.badRequest("invalid_header", "Header '" + k + "' cannot be set"
                            + (HEADER_NAME.matcher(k).matches() ? ": the transport manages it" : ": not a valid header name"));
                }
                if (v.chars().anyMatch(c -> c == '\r' || c == '\n')) {
                    throw ApiException.badRequest("invalid_header", "Header '" + k + "' has a line break in its value");
                }
            });
            checkSize("headers", headers);
            server.stageHeaders(headers);
        }
        server.setCommand(null);
        server.setArgsJson(null);
        server.setEnvJson(null);
    }

    /** A client that echoes a masked value back from a GET means "unchanged", not "set it to dots". */
    private Map<String, String> keepMaskedSecrets(Map<String, String> incoming, Map<String, String> old) {
        Map<String, String> result = new LinkedHashMap<>();
        incoming.forEach((k, v) -> {
            String previous = old.get(k);
            result.put(k, previous != null && v.equals(masker.mask(previous)) ? previous : v);
        });
        return result;
    }

    private static void checkSize(String field, Map<String, String> values) {
        if (values.size() > MAX_ENTRIES || values.values().stream().anyMatch(v -> v.length() > MAX_VALUE_LENGTH)) {
            throw ApiException.badRequest("invalid_" + field, "'" + field + "' allows at most " + MAX_ENTRIES
                    + " entries of at most " + MAX_VALUE_LENGTH + " characters");
        }
    }

    private static List<String> toolList(String field, List<String> tools) {
        if (tools.size() > MAX_TOOL_LIST || tools.stream().anyMatch(t -> t.isEmpty() || t.length() > 512)) {
            throw ApiException.badRequest("invalid_" + field, "'" + field + "' allows at most " + MAX_TOOL_LIST
                    + " tool names of 1 to 512 characters");
        }
        return tools.stream().distinct().toList();
    }

    private static String checkUrl(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw ApiException.badRequest("invalid_url", "'baseUrl' is not a valid URL: " + e.getReason());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw ApiException.badRequest("invalid_url", "'baseUrl' must use http or https");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw ApiException.badRequest("invalid_url", "'baseUrl' must name a host");
        }
        if (uri.getRawUserInfo() != null) {
            throw ApiException.badRequest("invalid_url", "'baseUrl' must not carry credentials; put them in 'headers', which are encrypted");
        }
        if (url.length() > 2048) {
            throw ApiException.badRequest("invalid_url", "'baseUrl' is longer than 2048 characters");
        }
        return url;
    }

    private static TransportKind parseType(String type) {
        return TransportKind.fromWireName(type).orElseThrow(() -> ApiException.badRequest("invalid_type",
                "'type' must be one of sse, streamableHttp, stdio, builtin; got '" + type + "'"));
    }

    private static McpServer.Scope parseScope(String scope, CurrentUser user) {
        McpServer.Scope parsed = switch (scope) {
            case "user" -> McpServer.Scope.USER;
            case "shared" -> McpServer.Scope.SHARED;
            default -> throw ApiException.badRequest("invalid_scope", "'scope' must be 'user' or 'shared'; got '" + scope + "'");
        };
        if (parsed == McpServer.Scope.SHARED && !user.isAdmin()) {
            throw ApiException.forbidden("shared_requires_admin", "Only admins may share a server with the whole tenant");
        }
        return parsed;
    }
}
