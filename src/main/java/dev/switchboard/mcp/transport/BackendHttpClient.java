package dev.switchboard.mcp.transport;

import dev.switchboard.platform.egress.AddressGuard;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SchemePortResolver;
import org.apache.hc.client5.http.SystemDefaultDnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.DefaultHttpClientConnectionOperator;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.impl.routing.SystemDefaultRoutePlanner;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.client5.http.io.DetachedSocketFactory;
import org.apache.hc.client5.http.io.HttpClientConnectionOperator;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.URIScheme;
import org.apache.hc.core5.http.config.RegistryBuilder;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.net.ProxySelector;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP client the backend transports share: Apache HttpClient 5 classic over one connection pool. An exchange
 * runs on the thread that executes it (no selector thread, no hand-offs), which for a caller that waits for the
 * answer anyway is the cheapest way to talk HTTP (bench/README.md, "Backend HTTP client").
 * <p>
 * Set up to behave as the JDK client did: HTTP/1.1, no redirects, no cookies, no automatic retries (a retried POST
 * would run a tool twice), no transparent decompression, the system's proxy selector and the JVM's default TLS
 * context. Two additions: an exchange can be stopped from another thread ({@link HttpUriRequestBase#cancel()} closes
 * its connection, which ends a blocked read), and a thread blocked in an exchange stops when interrupted, because
 * its sockets are those of {@link SocketChannel}s (interruptible channels).
 * <p>
 * Every connection is opened under the {@link AddressGuard} of the backend it serves ({@link #restrictedTo}), checked
 * on the address actually connected to ({@link GuardedConnectionOperator}); a pooled connection carries its guard as
 * its pool state, so it is reused only by exchanges under an equal guard.
 */
public final class BackendHttpClient implements AutoCloseable {

    /** Connections idle this long are closed by the periodic sweep; the keep-alive the server announces ends them sooner. */
    private static final TimeValue IDLE_CONNECTION_LIFETIME = TimeValue.ofMinutes(1);
    private static final Duration SWEEP_INTERVAL = Duration.ofSeconds(30);

    private final PoolingHttpClientConnectionManager connections;
    private final CloseableHttpClient client;
    private final ScheduledExecutorService scheduler;
    private final ScheduledFuture<?> sweep;
    private final AddressGuard guard;

    /**
     * @param maxPerBackend connections to one host and port at once; every open GET stream holds one for as long as it
     *                      lives, so this is well above the calls one backend can take at once
     * @param scheduler     sweeps idle connections and bounds the wait for a stream's headers
     */
    public BackendHttpClient(Duration connectTimeout, int maxPerBackend, int maxTotal, ScheduledExecutorService scheduler) {
        this(connectTimeout, maxPerBackend, maxTotal, scheduler, SystemDefaultDnsResolver.INSTANCE);
    }

    /** @param dns resolves backend host names (the system's resolver; a scripted one in tests of DNS rebinding) */
    BackendHttpClient(Duration connectTimeout, int maxPerBackend, int maxTotal, ScheduledExecutorService scheduler,
                      DnsResolver dns) {
        this.scheduler = scheduler;
        this.guard = AddressGuard.UNRESTRICTED;
        connections = new InterruptiblePoolBuilder()
                .setDnsResolver(dns)
                .setTlsSocketStrategy(new DefaultClientTlsStrategy(defaultSslContext()))
                .setMaxConnPerRoute(maxPerBackend)
                .setMaxConnTotal(maxTotal)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(connectTimeout))
                        // bounds the TLS handshake; each exchange then sets its own read timeout
                        .setSocketTimeout(Timeout.of(connectTimeout))
                        .build())
                .build();
        client = HttpClients.custom()
                .setConnectionManager(connections)
                .setRoutePlanner(new SystemDefaultRoutePlanner(ProxySelector.getDefault()))
                .setDefaultRequestConfig(RequestConfig.custom().setProtocolUpgradeEnabled(false).build())
                .disableAutomaticRetries()
                .disableRedirectHandling()
                .disableCookieManagement()
                .disableContentCompression()
                .disableAuthCaching()
                .build();
        sweep = scheduler.scheduleWithFixedDelay(this::closeIdleConnections,
                SWEEP_INTERVAL.toMillis(), SWEEP_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    private BackendHttpClient(BackendHttpClient shared, AddressGuard guard) {
        this.connections = shared.connections;
        this.client = shared.client;
        this.scheduler = shared.scheduler;
        this.sweep = shared.sweep;
        this.guard = guard;
    }

    /** The same client and pool, opening connections only where {@code guard} allows. */
    public BackendHttpClient restrictedTo(AddressGuard guard) {
        return guard.equals(this.guard) ? this : new BackendHttpClient(this, guard);
    }

    /**
     * Runs an exchange on the calling thread until the response headers are in; the caller reads the body and closes
     * the response (or cancels the request to drop the connection).
     *
     * @param readTimeout how long any one read may block (the headers, then each piece of the body); null: no limit
     */
    ClassicHttpResponse execute(HttpUriRequestBase request, Duration waitForConnection, Duration readTimeout) throws IOException {
        request.setConfig(RequestConfig.custom()
                .setProtocolUpgradeEnabled(false)
                .setConnectionRequestTimeout(Timeout.of(waitForConnection))
                .setResponseTimeout(readTimeout == null ? Timeout.DISABLED : Timeout.of(readTimeout))
                .build());
        HttpClientContext context = HttpClientContext.create();
        context.setAttribute(GuardedConnectionOperator.GUARD, guard);
        // the pool hands a connection only to exchanges whose token equals the one it was opened (and checked) for
        context.setUserToken(guard);
        return client.executeOpen(null, request, context);
    }

    /** Cancels {@code request} (closing its connection) unless the returned timer is cancelled first. */
    ScheduledFuture<?> cancelAfter(HttpUriRequestBase request, Duration delay) {
        return scheduler.schedule(request::cancel, delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void closeIdleConnections() {
        connections.closeExpired();
        connections.closeIdle(IDLE_CONNECTION_LIFETIME);
    }

    /** Closes the shared pool: for the owner of the client, never a {@link #restrictedTo} view of it. */
    @Override
    public void close() {
        sweep.cancel(false);
        connections.close(CloseMode.IMMEDIATE);
    }

    private static SSLContext defaultSslContext() {
        try {
            // the JVM default, as the JDK client used: honours javax.net.ssl.* and whatever the server configured
            return SSLContext.getDefault();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no default TLS context in this JVM", e);
        }
    }

    /**
     * Opens plain connections as {@link SocketChannel} sockets, whose blocking reads and writes end on interrupt, each
     * through the exchange's {@link AddressGuard}.
     */
    private static final class InterruptiblePoolBuilder extends PoolingHttpClientConnectionManagerBuilder {

        private static final DetachedSocketFactory CHANNEL_SOCKETS = proxy ->
                proxy == null || proxy.type() == java.net.Proxy.Type.DIRECT ? SocketChannel.open().socket() : new Socket(proxy);

        @Override
        protected HttpClientConnectionOperator createConnectionOperator(SchemePortResolver schemePortResolver,
                                                                        DnsResolver dnsResolver, TlsSocketStrategy tls) {
            DnsResolver dns = dnsResolver != null ? dnsResolver : SystemDefaultDnsResolver.INSTANCE;
            return new GuardedConnectionOperator(new DefaultHttpClientConnectionOperator(CHANNEL_SOCKETS, schemePortResolver,
                    dns, RegistryBuilder.<TlsSocketStrategy>create().register(URIScheme.HTTPS.id, tls).build()), dns);
        }
    }
}
