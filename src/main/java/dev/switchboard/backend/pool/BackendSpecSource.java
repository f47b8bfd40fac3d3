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
}
