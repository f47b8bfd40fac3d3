package dev.switchboard.mcp.transport;

import com.sun.net.httpserver.HttpServer;
import dev.switchboard.mcp.McpException;
import dev.switchboard.platform.egress.AddressGuard;
import dev.switchboard.platform.egress.AddressNotAllowedException;
import dev.switchboard.platform.egress.AllowedNetwork;
import dev.switchboard.testing.TestThreads;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The guard acts on every connection {@link BackendHttpClient} opens, on the address it connects to: a pooled
 * connection is not handed to an exchange under another guard, a name is resolved once and the checked address is
 * the one reached (DNS rebinding), and redirects are not followed.
 */
class GuardedConnectionsTest {

    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final AddressGuard USERS = AddressGuard.denyInternal(List.of());
    private static final AddressGuard LOOPBACK_ALLOWED = AddressGuard.denyInternal(
            List.of(AllowedNetwork.parse("127.0.0.1").orElseThrow()));

    private final TestThreads threads = new TestThreads();
    private final List<String> paths = new CopyOnWriteArrayList<>();
    /** What the scripted resolver answers, in turn, for {@code rebind.test}. */
    private final List<String> answers = new CopyOnWriteArrayList<>();
    private final AtomicInteger lookups = new AtomicInteger();
    private HttpServer server;
    private BackendHttpClient http;

    @BeforeEach
    void setUp() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        server.createContext("/", exchange -> {
            paths.add(exchange.getRequestURI().getPath());
            if (exchange.getRequestURI().getPath().equals("/redirect")) {
                exchange.getResponseHeaders().add("Location", "http://127.0.0.1:" + server.getAddress().getPort() + "/target");
                exchange.sendResponseHeaders(302, -1);
            } else {
                exchange.sendResponseHeaders(200, 2);
                exchange.getResponseBody().write("ok".getBytes());
            }
            exchange.close();
        });
        server.setExecutor(command -> threads.executor().execute(command));
        server.start();
        DnsResolver scripted = new DnsResolver() {
            @Override
            public InetAddress[] resolve(String host) throws UnknownHostException {
                if (!host.equals("rebind.test")) {
                    return InetAddress.getAllByName(host);
                }
                int n = lookups.getAndIncrement();
                return new InetAddress[]{InetAddress.getByName(answers.get(Math.min(n, answers.size() - 1)))};
            }

            @Override
            public String resolveCanonicalHostname(String host) {
                return host;
            }
        };
        http = new BackendHttpClient(WAIT, 8, 16, threads.scheduler(), scripted);
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        http.close();
        server.stop(0);
        threads.close();
    }

    @Test
    void aRestrictedExchangeIsRefusedBeforeAnyConnection() {
        IOException refused = assertThrows(IOException.class, () -> get(http.restrictedTo(USERS), "http://127.0.0.1:" + port() + "/mcp"));
        assertTrue(refused instanceof AddressNotAllowedException || refused.getCause() instanceof AddressNotAllowedException, refused.toString());
        McpException classified = HttpFailures.classify(refused, URI.create("http://127.0.0.1/"));
        assertEquals(McpException.Kind.ADDRESS_DENIED, classified.kind());
        assertEquals("address not allowed: 127.0.0.1 is loopback; an admin can allow it for this tenant", classified.getMessage());
        assertTrue(classified.isOwnWords());
        assertEquals(List.of(), paths, "nothing reached the server");
    }

    @Test
    void aPooledConnectionIsNotLentToAnExchangeUnderAnotherGuard() throws IOException {
        String url = "http://127.0.0.1:" + port() + "/first";
        assertEquals(200, get(http, url));
        assertEquals(200, get(http, url), "an unrestricted connection is reused by unrestricted exchanges");
        // the connection the unrestricted exchanges left in the pool must not carry a restricted one past its check
        assertThrows(IOException.class, () -> get(http.restrictedTo(USERS), "http://127.0.0.1:" + port() + "/second"));
        assertEquals(List.of("/first", "/first"), paths);
        // allowed, it opens (and checks) a connection of its own
        assertEquals(200, get(http.restrictedTo(LOOPBACK_ALLOWED), "http://127.0.0.1:" + port() + "/third"));
        assertEquals(List.of("/first", "/first", "/third"), paths);
    }

    @Test
    void theAddressCheckedIsTheAddressReached() throws IOException {
        // allowed when checked; a resolver that now answered differently (rebinding) is not asked again
        answers.addAll(List.of("127.0.0.1", "10.0.0.1"));
        assertEquals(200, get(http.restrictedTo(LOOPBACK_ALLOWED), "http://rebind.test:" + port() + "/rebind"));
        assertEquals(1, lookups.get(), "one lookup per connection: the connection went to the address checked");
        assertEquals(List.of("/rebind"), paths);
    }

    @Test
    void aNameThatResolvesInternallyIsRefused() {
        answers.add("127.0.0.1");
        IOException refused = assertThrows(IOException.class, () -> get(http.restrictedTo(USERS), "http://rebind.test:" + port() + "/x"));
        assertEquals("address not allowed: rebind.test (127.0.0.1) is loopback; an admin can allow it for this tenant",
                HttpFailures.classify(refused, URI.create("http://rebind.test/")).getMessage());
        assertEquals(List.of(), paths);
    }

    @Test
    void redirectsAreNotFollowed() throws IOException {
        assertEquals(302, get(http.restrictedTo(LOOPBACK_ALLOWED), "http://127.0.0.1:" + port() + "/redirect"));
        assertEquals(List.of("/redirect"), paths, "the redirect's target was not asked");
    }

    private int port() {
        return server.getAddress().getPort();
    }

    private static int get(BackendHttpClient client, String url) throws IOException {
        try (ClassicHttpResponse response = client.execute(new HttpGet(url), WAIT, WAIT)) {
            return response.getCode();
        }
    }
}
