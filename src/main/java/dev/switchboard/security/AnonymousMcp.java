package dev.switchboard.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.logging.Logger;

/**
 * The administrator's switch for anonymous MCP (local development only, see {@link GatewayCaller}): off by default,
 * for loopback callers only unless widened, announced loudly at start when on.
 */
@ApplicationScoped
public class AnonymousMcp {

    private static final Logger LOG = Logger.getLogger(AnonymousMcp.class.getName());

    @Inject
    @ConfigProperty(name = "switchboard.gateway.anonymous", defaultValue = "false")
    boolean enabled;

    @Inject
    @ConfigProperty(name = "switchboard.gateway.anonymous.loopback-only", defaultValue = "true")
    boolean loopbackOnly;

    @Inject
    @ConfigProperty(name = "switchboard.default-tenant", defaultValue = "default")
    String defaultTenant;

    public AnonymousMcp() {
    }

    AnonymousMcp(boolean enabled, boolean loopbackOnly) {
        this.enabled = enabled;
        this.loopbackOnly = loopbackOnly;
    }

    void started(@Observes @Initialized(ApplicationScoped.class) Object event) {
        if (enabled) {
            LOG.warning("ANONYMOUS MCP ACCESS IS ON (SWITCHBOARD_GATEWAY_ANONYMOUS=true): " + (loopbackOnly
                    ? "callers on this machine (loopback)" : "ANY CALLER THAT CAN REACH THIS SERVER")
                    + " may use /mcp without a token, as '" + GatewayCaller.ANONYMOUS_SUBJECT + "' with role user in tenant '"
                    + defaultTenant + "' and that tenant's shared servers. For local development only; switch it off "
                    + "anywhere else.");
        }
    }

    public boolean isEnabled() {
        return enabled;
    }

    /** Whether a caller without credentials from this address is served as the anonymous principal. */
    boolean admits(String remoteAddress) {
        if (!enabled) {
            return false;
        }
        if (!loopbackOnly) {
            return true;
        }
        try {
            return remoteAddress != null && InetAddress.getByName(remoteAddress).isLoopbackAddress();
        } catch (UnknownHostException e) {
            LOG.fine(() -> "anonymous MCP refused for unparsable remote address " + remoteAddress);
            return false;
        }
    }
}
