package dev.switchboard.mcp.client;

import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.McpException.Kind;
import dev.switchboard.mcp.ProtocolVersions;
import dev.switchboard.testing.ScriptedServer;
import dev.switchboard.testing.ServerEverything;
import dev.switchboard.testing.TestThreads;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every way a connect can fail ends in the right {@link McpException.Kind}, quickly and with a useful message. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConnectFailuresTest {

    private static final Duration CONNECT = Duration.ofSeconds(5);

    private TestThreads threads;
    private DefaultMcpConnector connector;
    private ServerEverything streamable;

    @BeforeAll
    void setUp() {
        threads = new TestThreads();
        connector = new DefaultMcpConnector(threads.executor(), threads.scheduler());
        streamable = ServerEverything.start(ServerEverything.Mode.STREAMABLE_HTTP);
    }

    @AfterAll
    void tearDown() throws InterruptedException {
        streamable.close();
        threads.close();
    }

    @ParameterizedTest
    @EnumSource(value = BackendSpec.TransportType.class, names = {"STREAMABLE_HTTP", "SSE"})
    void unknownHostIsDns(BackendSpec.TransportType type) {
        McpException e = failure(BackendSpec.http(type, "http://no-such-host.invalid/mcp", Map.of()), CONNECT);
        assertEquals(Kind.DNS, e.kind(), e::toString);
        assertTrue(e.getMessage().contains("no-such-host.invalid"));
    }

    @ParameterizedTest
    @EnumSource(value = BackendSpec.TransportType.class, names = {"STREAMABLE_HTTP", "SSE"})
    void closedPortIsRefused(BackendSpec.TransportType type) {
        McpException e = failure(BackendSpec.http(type, "http://127.0.0.1:" + ServerEverything.freePort() + "/mcp", Map.of()), CONNECT);
        assertEquals(Kind.CONNECT_REFUSED, e.kind(), e::toString);
    }

    @ParameterizedTest
    @EnumSource(value = BackendSpec.TransportType.class, names = {"STREAMABLE_HTTP", "SSE"})
    void wrongPathIsHttpStatus(BackendSpec.TransportType type) {
        McpException e = failure(BackendSpec.http(type, "http://127.0.0.1:" + streamable.port() + "/no-such-path", Map.of()), CONNECT);
        assertEquals(Kind.HTTP_STATUS, e.kind(), e::toString);
        assertEquals(404, e.httpStatus());
        assertTrue(e.getMessage().contains("404"), e::getMessage);
    }

    @ParameterizedTest
    @EnumSource(value = BackendSpec.TransportType.class, names = {"STREAMABLE_HTTP", "SSE"})
    void silentServerIsTimeout(BackendSpec.TransportType type) throws IOException {
        try (ServerSocket silent = new ServerSocket(0)) {
            Thread acceptor = new Thread(() -> {
                try (Socket ignored = silent.accept()) {
                    Thread.sleep(5_000);
                } catch (IOException | InterruptedException e) {
                    // test over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            long started = System.nanoTime();
            McpException e = failure(BackendSpec.http(type, "http://127.0.0.1:" + silent.getLocalPort() + "/mcp", Map.of()),
                    Duration.ofMillis(800));
            assertEquals(Kind.TIMEOUT, e.kind(), e::toString);
            assertTrue((System.nanoTime() - started) / 1_000_000 < 3_000, "timeout took too long");
            acceptor.interrupt();
        }
    }

    @Test
    void missingCommandIsRefusedWithItsName() {
        McpException e = failure(BackendSpec.stdio("no-such-command-switchboard", List.of(), Map.of()), CONNECT);
        assertEquals(Kind.CONNECT_REFUSED, e.kind());
        assertTrue(e.getMessage().contains("no-such-command-switchboard"), e::getMessage);
    }

    @Test
    void processExitingBeforeTheHandshakeIsClosedWithItsExitCode() {
        McpException e = failure(BackendSpec.stdio("node", List.of("-e", "console.error('boom'); process.exit(3)"), Map.of()), CONNECT);
        assertEquals(Kind.CLOSED, e.kind());
        assertTrue(e.getMessage().contains("exited with code 3"), e::getMessage);
        assertTrue(e.getMessage().contains("boom"), e::getMessage);
    }

    @Test
    void unsupportedProtocolVersionIsProtocolErrorNamingTheVersions() {
        McpException e = failure(ScriptedServer.spec("1999-01-01"), CONNECT);
        assertEquals(Kind.PROTOCOL, e.kind());
        assertTrue(e.getMessage().contains("1999-01-01"), e::getMessage);
        ProtocolVersions.SUPPORTED.forEach(v -> assertTrue(e.getMessage().contains(v), e::getMessage));
    }

    @Test
    void malformedUrlIsRejectedBeforeAnyNetworkTraffic() {
        McpException e = failure(BackendSpec.http(BackendSpec.TransportType.STREAMABLE_HTTP, "ftp://example/mcp", Map.of()), CONNECT);
        assertEquals(Kind.PROTOCOL, e.kind());
    }

    private McpException failure(BackendSpec spec, Duration timeout) {
        return assertThrows(McpException.class, () -> connector.connect(spec, timeout).close());
    }
}
