package dev.switchboard.gateway.modern;

import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.mcp.HeaderValue;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpErrorCodes;
import dev.switchboard.mcp.ModernProtocol;
import dev.switchboard.mcp.RequestMeta;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * Tells a request of the stateless era from a session-era one, and checks it before anything serves it (spec
 * 2026-07-28, basic/versioning and transports/streamable-http: server validation), in the order the conformance
 * suite expects: a version header that disagrees with {@code _meta} is a header mismatch; a version not served here
 * is an unsupported version (which tells the client what to retry with); a {@code _meta} that cannot be read is
 * invalid params; a missing header, or one that disagrees with the body, is a header mismatch.
 */
public final class ModernRequestCheck {

    /** An answer instead of serving the request: its HTTP status and the JSON-RPC error. */
    public record Refusal(int status, JsonRpcMessage error) {
    }

    private final List<String> supported;

    /** @param supported every version served, modern and session-era, newest first */
    public ModernRequestCheck(List<String> supported) {
        this.supported = List.copyOf(supported);
    }

    /**
     * Whether a POST is of the stateless era: its {@code MCP-Protocol-Version} header or its {@code _meta} names a
     * version the session era does not know. A request naming a session-era version in both (or in neither, or no
     * header at all) is a session's, served as before.
     */
    public static boolean selects(String versionHeader, JsonRpcMessage message) {
        String header = versionHeader == null ? null : versionHeader.strip();
        return ModernProtocol.isModern(header) || ModernProtocol.isModern(RequestMeta.versionOf(message.params()));
    }

    /**
     * The refusal of a stateless request, or empty when it may be served.
     *
     * @param headers the request's header values by name (case-insensitive), null for an absent one
     */
    public Optional<Refusal> refusal(JsonRpcMessage request, UnaryOperator<String> headers) {
        JsonValue id = request.id();
        String bodyVersion = RequestMeta.versionOf(request.params());
        String headerVersion = headers.apply("MCP-Protocol-Version");
        headerVersion = headerVersion == null ? null : headerVersion.strip();
        if (headerVersion != null && bodyVersion != null && !headerVersion.equals(bodyVersion)) {
            return mismatch(id, "MCP-Protocol-Version header '" + headerVersion + "' does not match _meta."
                    + ModernProtocol.PROTOCOL_VERSION_KEY + " '" + bodyVersion + "'");
        }
        String version = bodyVersion != null ? bodyVersion : headerVersion;
        if (!ModernProtocol.VERSIONS.contains(version)) {
            return Optional.of(new Refusal(400, unsupportedVersion(id, version)));
        }
        Optional<String> metaProblem = RequestMeta.problem(request.params());
        if (metaProblem.isPresent()) {
            return refuse(id, GatewayErrors.INVALID_PARAMS, "Invalid params: " + metaProblem.get(), null);
        }
        if (headerVersion == null) {
            return mismatch(id, "the MCP-Protocol-Version header is required");
        }
        return headersMatchBody(request, headers);
    }

    /** {@code UnsupportedProtocolVersionError}: what was asked and every version served, for either era. */
    public JsonRpcMessage unsupportedVersion(JsonValue id, String requested) {
        var versions = JSON.createArrayBuilder();
        supported.forEach(versions::add);
        var data = JSON.createObjectBuilder().add("supported", versions);
        data = requested == null ? data.add("requested", JsonValue.NULL) : data.add("requested", requested);
        return GatewayErrors.error(id, McpErrorCodes.UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version '"
                + requested + "'; supported: " + String.join(", ", supported), data.build());
    }

    private static Optional<Refusal> headersMatchBody(JsonRpcMessage request, UnaryOperator<String> headers) {
        String method = headers.apply(ModernProtocol.METHOD_HEADER);
        if (method == null) {
            return mismatch(request.id(), "the " + ModernProtocol.METHOD_HEADER + " header is required");
        }
        if (!method.strip().equals(request.method())) {
            return mismatch(request.id(), ModernProtocol.METHOD_HEADER + " header '" + method.strip()
                    + "' does not match the body's method '" + request.method() + "'");
        }
        String member = ModernProtocol.NAMED.get(request.method());
        if (member == null || !(request.params().get(member) instanceof JsonString bodyName)) {
            return Optional.empty();
        }
        String name = headers.apply(ModernProtocol.NAME_HEADER);
        if (name == null) {
            return mismatch(request.id(), "the " + ModernProtocol.NAME_HEADER + " header is required for " + request.method());
        }
        Optional<String> decoded = HeaderValue.decode(name);
        if (decoded.isEmpty()) {
            return mismatch(request.id(), ModernProtocol.NAME_HEADER + " header is not valid =?base64?...?= text");
        }
        if (!decoded.get().equals(bodyName.getString())) {
            return mismatch(request.id(), ModernProtocol.NAME_HEADER + " header '" + decoded.get()
                    + "' does not match the body's params." + member + " '" + bodyName.getString() + "'");
        }
        return Optional.empty();
    }

    private static Optional<Refusal> mismatch(JsonValue id, String why) {
        return refuse(id, McpErrorCodes.HEADER_MISMATCH, "Header mismatch: " + why, null);
    }

    private static Optional<Refusal> refuse(JsonValue id, int code, String message, JsonValue data) {
        return Optional.of(new Refusal(400, GatewayErrors.error(id, code, message, data)));
    }
}
