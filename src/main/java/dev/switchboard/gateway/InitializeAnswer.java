package dev.switchboard.gateway;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/**
 * The gateway's answer to {@code initialize}: Switchboard's server info and the capabilities the caller's backends
 * offer through it ({@link CapabilityUnion}).
 */
public final class InitializeAnswer {

    public static final String SERVER_NAME = "switchboard";
    public static final String SERVER_TITLE = "Switchboard MCP gateway";
    public static final String SERVER_VERSION = "0.1.0";

    private InitializeAnswer() {
    }

    /** The version the client asked for in its {@code initialize} params, or null. */
    public static String requestedVersion(JsonObject params) {
        return params.get("protocolVersion") instanceof JsonString s ? s.getString() : null;
    }

    public static JsonObject result(String protocolVersion, JsonObject capabilities) {
        return JSON.createObjectBuilder()
                .add("protocolVersion", protocolVersion)
                .add("capabilities", capabilities)
                .add("serverInfo", JSON.createObjectBuilder()
                        .add("name", SERVER_NAME).add("title", SERVER_TITLE).add("version", SERVER_VERSION))
                .add("instructions", "Tools, prompts and resources of every shared MCP server of your tenant: tools and prompts named "
                        + "{server}__{name}, resource URIs switchboard://{server}/{uri}.")
                .build();
    }

    /** An empty result, as {@code ping} answers. */
    public static JsonObject empty() {
        return JsonValue.EMPTY_JSON_OBJECT;
    }
}
