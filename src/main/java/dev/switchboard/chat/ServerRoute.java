package dev.switchboard.chat;

import dev.switchboard.backend.access.BackendTarget;
import dev.switchboard.backend.pool.BackendSpecSource;
import dev.switchboard.backend.registry.McpServer;
import dev.switchboard.backend.registry.McpServerRegistry;
import dev.switchboard.backend.tools.BackendNames;
import dev.switchboard.mcp.client.BackendSpec;
import dev.switchboard.security.CurrentUser;
import dev.switchboard.workspace.Workspace;

import java.time.Duration;

/**
 * How one run reaches one server through the connection pool. A stdio server of a run with a workspace gets a
 * process of its own whose working directory is the session workspace, pooled under
 * {@code <server id>@<workspace>} next to the user's ordinary connection; every other server uses the ordinary
 * pooled connection. The session's process is reaped like any idle connection, long before its workspace can
 * expire (the pool's idle timeout is far below the workspace TTL, and every use refreshes both), and
 * {@link SessionProcessEviction} closes it when its server changes.
 *
 * @param poolId the pool's server id
 */
record ServerRoute(McpServer server, String poolId, BackendSpecSource spec) implements BackendTarget {

    static final char SESSION_SEPARATOR = '@';

    static ServerRoute of(McpServer server, McpServerRegistry registry, CurrentUser user, Workspace workspace) {
        String plain = String.valueOf(server.getId());
        BackendSpecSource source = registry.specSource(server, user);
        if (workspace == null || server.getType().transport() != BackendSpec.TransportType.STDIO) {
            return new ServerRoute(server, plain, source);
        }
        return new ServerRoute(server, plain + SESSION_SEPARATOR + workspace.directory(), () -> {
            BackendSpec spec = source.get();
            return new BackendSpec(spec.type(), spec.url(), spec.headers(), spec.command(), spec.args(), spec.env(),
                    workspace.directory());
        });
    }

    @Override
    public String name() {
        return BackendNames.sanitise(server.getName());
    }

    @Override
    public String serverId() {
        return String.valueOf(server.getId());
    }

    Duration timeout() {
        return Duration.ofSeconds(server.getTimeoutSeconds());
    }
}
