package dev.switchboard.backend.registry;

import dev.switchboard.security.SecretCipher;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Map;

/**
 * The encrypted header and env values of a server row. Each value is bound to its place,
 * {@code mcp_server/<id>/headers/<name>} or {@code mcp_server/<id>/env/<name>} (AES-GCM associated data), so a value
 * copied into another row, field or name does not decrypt.
 */
@ApplicationScoped
public class ServerSecrets {

    @Inject
    SecretCipher cipher;

    protected ServerSecrets() {
    }

    public ServerSecrets(SecretCipher cipher) {
        this.cipher = cipher;
    }

    static String place(McpServer server, String field) {
        return "mcp_server/" + server.getId() + "/" + field;
    }

    public Map<String, String> headers(McpServer server) {
        return cipher.decryptValues(McpServerJson.readMap(server.getHeadersJson()), place(server, "headers"));
    }

    public Map<String, String> env(McpServer server) {
        return cipher.decryptValues(McpServerJson.readMap(server.getEnvJson()), place(server, "env"));
    }

    /** Encrypts the values a create or update staged into the row's columns; the row must have its id by now. */
    public void seal(McpServer server) {
        if (server.getId() == null) {
            throw new IllegalStateException("A server's secrets are sealed once its row has an id");
        }
        if (server.stagedHeaders() != null) {
            server.setHeadersJson(McpServerJson.writeMap(cipher.encryptValues(server.stagedHeaders(), place(server, "headers"))));
            server.stageHeaders(null);
        }
        if (server.stagedEnv() != null) {
            server.setEnvJson(McpServerJson.writeMap(cipher.encryptValues(server.stagedEnv(), place(server, "env"))));
            server.stageEnv(null);
        }
    }

    /**
     * Rewrites values that are not under the newest key and bound to their place (plain text of before encryption,
     * {@code enc:v1:} of before places, an older key); true when the row changed. Every value is decrypted, current
     * or not, so a value that does not belong here is found by the background pass and not only at its next use.
     *
     * @throws IllegalStateException when a value cannot be decrypted (moved from another place, a retired key)
     */
    public boolean reencrypt(McpServer server) {
        Map<String, String> headers = headers(server);
        Map<String, String> env = env(server);
        boolean stale = !cipher.allCurrent(McpServerJson.readMap(server.getHeadersJson()))
                || !cipher.allCurrent(McpServerJson.readMap(server.getEnvJson()));
        if (stale) {
            server.stageHeaders(server.getHeadersJson() == null ? null : headers);
            server.stageEnv(server.getEnvJson() == null ? null : env);
            seal(server);
        }
        return stale;
    }
}
