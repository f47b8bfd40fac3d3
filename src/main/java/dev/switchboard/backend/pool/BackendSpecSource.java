package dev.switchboard.backend.pool;

import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.client.BackendSpec;

/**
 * Produces the decrypted {@link BackendSpec} of a server when the pool has to (re)connect; not called while a
 * live connection can be reused, so secrets are decrypted only when needed.
 */
@FunctionalInterface
public interface BackendSpecSource {

    BackendSpec get() throws McpException;

    /**
     * The version of the server's settings this source reads: a pooled connection made from an older version is
     * dropped before the next call through this source. Zero for sources of no registered server.
     */
    default long settingsVersion() {
        return 0;
    }
}
