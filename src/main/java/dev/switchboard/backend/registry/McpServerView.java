package dev.switchboard.backend.registry;

import dev.switchboard.security.SecretMasker;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import java.util.List;
import java.util.Map;

import static dev.switchboard.platform.json.JsonProviders.JSON;

/** The JSON a client sees for a server: every field of the MCP client system's table, secrets masked, never decrypted out. */
@ApplicationScoped
public class McpServerView {

    @Inject
    ServerSecrets secrets;

    @Inject
    SecretMasker masker;

    public JsonObjectBuilder toJson(McpServer s) {
        JsonObjectBuilder json = JSON.createObjectBuilder()
                .add("id", s.getId())
                .add("userId", s.getUserId())
                .add("name", s.getName())
                .add("type", s.getType().wireName())
                .add("scope", s.getScope() == McpServer.Scope.SHARED ? "shared" : "user")
                .add("isActive", s.isActive())
                .add("timeout", s.getTimeoutSeconds())
                .add("disabledTools", array(McpServerJson.readList(s.getDisabledToolsJson())))
                .add("autoApproveTools", array(McpServerJson.readList(s.getAutoApproveToolsJson())))
                .add("createdAt", s.getCreatedAt())
                .add("updatedAt", s.getUpdatedAt());
        if (s.getType() == TransportKind.STDIO) {
            json.add("command", s.getCommand())
                    .add("args", array(McpServerJson.readList(s.getArgsJson())))
                    .add("env", masked(secrets.env(s)));
        } else if (s.getType() == TransportKind.BUILTIN) {
            json.add("command", s.getCommand());
        } else {
            json.add("baseUrl", s.getBaseUrl())
                    .add("headers", masked(secrets.headers(s)));
        }
        return json;
    }

    private JsonObject masked(Map<String, String> plain) {
        JsonObjectBuilder object = JSON.createObjectBuilder();
        masker.maskValues(plain).forEach(object::add);
        return object.build();
    }

    private static JsonArrayBuilder array(List<String> values) {
        JsonArrayBuilder array = JSON.createArrayBuilder();
        values.forEach(array::add);
        return array;
    }
}
