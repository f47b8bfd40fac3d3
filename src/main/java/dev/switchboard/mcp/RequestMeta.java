package dev.switchboard.mcp;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import java.util.Optional;

/**
 * What a 2026-07-28 request says about itself in {@code params._meta}: its protocol version and the client's
 * capabilities (both required), who the client is and the log level it wants (both optional).
 *
 * @param clientInfo null when the client did not say
 * @param logLevel   null when the client wants no log messages for this request
 */
public record RequestMeta(String protocolVersion, JsonObject clientCapabilities, JsonObject clientInfo, String logLevel) {

    /** Why a request's {@code _meta} cannot be read, in words for the client; empty when it can. */
    public static Optional<String> problem(JsonObject params) {
        if (!(params.get("_meta") instanceof JsonObject meta)) {
            return Optional.of("params._meta is required");
        }
        if (!(meta.get(ModernProtocol.PROTOCOL_VERSION_KEY) instanceof JsonString)) {
            return Optional.of("params._meta." + ModernProtocol.PROTOCOL_VERSION_KEY + " is required (a string)");
        }
        if (!(meta.get(ModernProtocol.CLIENT_CAPABILITIES_KEY) instanceof JsonObject)) {
            return Optional.of("params._meta." + ModernProtocol.CLIENT_CAPABILITIES_KEY + " is required (an object)");
        }
        JsonValue info = meta.get(ModernProtocol.CLIENT_INFO_KEY);
        if (info != null && !(info instanceof JsonObject)) {
            return Optional.of("params._meta." + ModernProtocol.CLIENT_INFO_KEY + " must be an object");
        }
        JsonValue level = meta.get(ModernProtocol.LOG_LEVEL_KEY);
        if (level != null && !(level instanceof JsonString s && ModernProtocol.LOG_LEVELS.contains(s.getString()))) {
            return Optional.of("params._meta." + ModernProtocol.LOG_LEVEL_KEY + " must be one of " + ModernProtocol.LOG_LEVELS);
        }
        return Optional.empty();
    }

    /** The version a request's {@code _meta} names, or null. */
    public static String versionOf(JsonObject params) {
        return params.get("_meta") instanceof JsonObject meta && meta.get(ModernProtocol.PROTOCOL_VERSION_KEY) instanceof JsonString s
                ? s.getString() : null;
    }

    /** Reads a {@code _meta} that has no {@link #problem}. */
    public static RequestMeta of(JsonObject params) {
        JsonObject meta = params.getJsonObject("_meta");
        return new RequestMeta(meta.getString(ModernProtocol.PROTOCOL_VERSION_KEY),
                meta.getJsonObject(ModernProtocol.CLIENT_CAPABILITIES_KEY),
                meta.get(ModernProtocol.CLIENT_INFO_KEY) instanceof JsonObject info ? info : null,
                meta.get(ModernProtocol.LOG_LEVEL_KEY) instanceof JsonString level ? level.getString() : null);
    }

    /** Whether the client declared a capability (an object under its name). */
    public boolean declares(String capability) {
        return clientCapabilities.get(capability) instanceof JsonObject;
    }
}
