package dev.switchboard.mcp.transport;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.switchboard.mcp.JsonRpcPeer;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.TrafficListener;
import dev.switchboard.testing.TestThreads;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * A small MCP server of a test (the JDK's HttpServer answering {@code /mcp} on the test's threads) and the
 * {@link JsonRpcPeer} a test connects over the Streamable HTTP transport; {@link #close()} ends all of it.
 */
final class TestMcpEndpoint implements AutoCloseable {

    private final TestThreads threads = new TestThreads();
    private final HttpServer server;
    private BackendHttpClient http;
    private StreamableHttpTransport transport;
    private JsonRpcPeer peer;

    TestMcpEndpoint(HttpHandler mcp) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(threads.executor());
        server.createContext("/mcp", mcp);
        server.start();
    }

    TestThreads threads() {
        return threads;
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
    }

    /** A started peer on a new transport to {@code uri} (this server or another). */
    JsonRpcPeer connect(URI uri, int maxPerBackend, ReconnectBackoff backoff) throws McpException {
        http = new BackendHttpClient(Duration.ofSeconds(3), maxPerBackend, 16, threads.scheduler());
        transport = new StreamableHttpTransport(uri, ExtraHeaders.validated(Map.of(), uri), http, threads.executor(), backoff);
        peer = new JsonRpcPeer(transport, threads.executor(), threads.scheduler(), TrafficListener.NONE);
        peer.start(Duration.ofSeconds(1));
        return peer;
    }

    StreamableHttpTransport transport() {
        return transport;
    }

    @Override
    public void close() throws InterruptedException {
        if (peer != null) {
            peer.close();
        }
        if (http != null) {
            http.close();
        }
        server.stop(0);
        threads.close();
    }
}
