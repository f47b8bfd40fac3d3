package dev.switchboard.mcp.transport;

import dev.switchboard.platform.egress.AddressGuard;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.RouteInfo;
import org.apache.hc.client5.http.io.HttpClientConnectionOperator;
import org.apache.hc.client5.http.io.ManagedHttpClientConnection;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.net.NamedEndpoint;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

/**
 * Opens every connection of {@link BackendHttpClient} through the {@link AddressGuard} of the exchange that asks for
 * it: the host is resolved and checked here, then the connection is made to the checked address itself (an
 * {@link HttpHost} that carries its address is not looked up again), so what was checked is what is reached. TLS
 * still names and verifies the host as written. An exchange without a guard gets the strictest one.
 * <p>
 * Through a proxy the proxy resolves the target: the target's name is checked here as it resolves now, and the proxy
 * (an operator's choice, reached unchecked) must enforce its own egress rules against rebinding.
 */
final class GuardedConnectionOperator implements HttpClientConnectionOperator {

    /** The context attribute holding the exchange's {@link AddressGuard}. */
    static final String GUARD = "switchboard.address-guard";
    private static final AddressGuard STRICTEST = AddressGuard.denyInternal(List.of());

    private final HttpClientConnectionOperator delegate;
    private final DnsResolver dns;

    GuardedConnectionOperator(HttpClientConnectionOperator delegate, DnsResolver dns) {
        this.delegate = delegate;
        this.dns = dns;
    }

    @Override
    public void connect(ManagedHttpClientConnection conn, HttpHost host, InetSocketAddress localAddress,
                        TimeValue connectTimeout, SocketConfig socketConfig, HttpContext context) throws IOException {
        connect(conn, host, null, null, localAddress, connectTimeout == null ? null
                : Timeout.of(connectTimeout.getDuration(), connectTimeout.getTimeUnit()), socketConfig, null, context);
    }

    @Override
    public void connect(ManagedHttpClientConnection conn, HttpHost endpointHost, NamedEndpoint endpointName,
                        InetSocketAddress localAddress, Timeout connectTimeout, SocketConfig socketConfig,
                        Object attachment, HttpContext context) throws IOException {
        connect(conn, endpointHost, endpointName, null, localAddress, connectTimeout, socketConfig, attachment, context);
    }

    @Override
    public void connect(ManagedHttpClientConnection conn, HttpHost endpointHost, NamedEndpoint endpointName,
                        Path unixDomainSocket, InetSocketAddress localAddress, Timeout connectTimeout,
                        SocketConfig socketConfig, Object attachment, HttpContext context) throws IOException {
        AddressGuard guard = context != null && context.getAttribute(GUARD) instanceof AddressGuard g ? g : STRICTEST;
        if (guard.isUnrestricted()) {
            delegate.connect(conn, endpointHost, endpointName, unixDomainSocket, localAddress, connectTimeout,
                    socketConfig, attachment, context);
            return;
        }
        if (unixDomainSocket != null) {
            throw new IOException("a restricted backend connection cannot use a Unix domain socket");
        }
        RouteInfo route = context == null ? null : HttpClientContext.castOrCreate(context).getHttpRoute();
        if (route != null && route.getProxyHost() != null && route.getProxyHost().equals(endpointHost)) {
            guard.resolve(route.getTargetHost().getHostName(), this::lookUp);
            delegate.connect(conn, endpointHost, endpointName, null, localAddress, connectTimeout, socketConfig,
                    attachment, context);
            return;
        }
        List<InetAddress> addresses = guard.resolve(endpointHost.getHostName(), this::lookUp);
        NamedEndpoint name = endpointName != null ? endpointName : endpointHost;
        IOException last = null;
        for (InetAddress address : addresses) {
            try {
                delegate.connect(conn, new HttpHost(endpointHost.getSchemeName(), address, endpointHost.getHostName(),
                        endpointHost.getPort()), name, null, localAddress, connectTimeout, socketConfig, attachment, context);
                return;
            } catch (IOException e) {
                // the next address may answer, as the default operator tries them in turn
                last = e;
            }
        }
        throw last;
    }

    @Override
    public void upgrade(ManagedHttpClientConnection conn, HttpHost host, HttpContext context) throws IOException {
        delegate.upgrade(conn, host, context);
    }

    @Override
    public void upgrade(ManagedHttpClientConnection conn, HttpHost endpointHost, NamedEndpoint endpointName,
                        Object attachment, HttpContext context) throws IOException {
        delegate.upgrade(conn, endpointHost, endpointName, attachment, context);
    }

    private InetAddress[] lookUp(String host) throws java.net.UnknownHostException {
        return dns.resolve(host);
    }
}
