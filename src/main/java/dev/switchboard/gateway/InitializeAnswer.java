package dev.switchboard.gateway;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import static dev.switchboard.mcp.JsonRpcMessage.JSON;

/**
 * The gateway's answer to {@code initialize}. It declares what the gateway itself serves: tools (the union of what
 * its backends offer through it), with {@code list_changed} on the session's GET stream; resources, prompts and the
 * rest are not routed yet, so they are not offered.
 * Backends are not contacted here: a slow backend must not delay every client's handshake.
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

    public static JsonObject result(String protocolVersion) {
        return JSON.createObjectBuilder()
                .add("protocolVersion", protocolVersion)
                .add("capabilities", JSON.createObjectBuilder()
                        .add("tools", JSON.createObjectBuilder().add("listChanged", true)))
                .add("serverInfo", JSON.createObjectBuilder()
                        .add("name", SERVER_NAME).add("title", SERVER_TITLE).add("version", SERVER_VERSION))
                .add("instructions", "Tools of every shared MCP server of your tenant, named {server}__{tool}.")
                .build();
    }

    /** An empty result, as {@code ping} answers. */
    public static JsonObject empty() {
        return JsonValue.EMPTY_JSON_OBJECT;
    }
}
