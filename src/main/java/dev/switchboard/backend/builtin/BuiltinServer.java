package dev.switchboard.backend.builtin;

import dev.switchboard.mcp.transport.InProcessServer;
import dev.switchboard.security.CallerIdentity;

/**
 * An MCP server Switchboard serves inside its own JVM, registered as a server of type {@code builtin} whose
 * {@code command} is {@link #name()}. Pooled, listed, called, audited and aggregated like any other backend; the
 * connection carries the identity of the caller it was opened for instead of a token.
 */
public interface BuiltinServer {

    /** The name a registration's {@code command} uses, e.g. {@code sqlquery}. */
    String name();

    /** The server as {@code caller} sees it: every call on connections it opens acts with that caller's rights. */
    InProcessServer serve(CallerIdentity caller);
}
