package dev.switchboard.gateway.http;

import dev.switchboard.gateway.GatewayConfiguration;
import dev.switchboard.gateway.GatewaySessions;
import dev.switchboard.gateway.GatewaySettings;
import dev.switchboard.gateway.GatewayThreads;
import dev.switchboard.gateway.StreamReplay;
import dev.switchboard.gateway.ClientSessions;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With {@code compatibility.legacyHttpSse} at its default (false) the legacy endpoints do not exist: 404 before
 * anything else is looked at. (The IT server turns the flag on to test the transport itself.)
 */
class GatewayLegacySseOffTest {

    private final AtomicInteger status = new AtomicInteger();
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();

    @Test
    void bothLegacyEndpointsAnswer404ByDefault() throws Exception {
        McpServlet servlet = servletWithDefaults();
        servlet.doGet(request("/mcp/sse"), response());
        assertEquals(404, status.get());
        assertTrue(body.toString(StandardCharsets.UTF_8).contains("the legacy HTTP+SSE transport (2024-11-05) is off; "
                + "set compatibility.legacyHttpSse=true"), body::toString);
        body.reset();
        servlet.doPost(request("/mcp/messages"), response());
        assertEquals(404, status.get());
        assertTrue(body.toString(StandardCharsets.UTF_8).contains("-32600"), body::toString);
    }

    private static McpServlet servletWithDefaults() {
        McpServlet servlet = new McpServlet();
        GatewaySessions sessions = new GatewaySessions(Duration.ofMinutes(1), Clock.systemUTC());
        servlet.configuration = new GatewayConfiguration() {
            @Override
            public GatewaySettings settings() {
                return GatewaySettings.defaults();
            }

            @Override
            public StreamReplay replay() {
                return new StreamReplay(100, 16, Duration.ofSeconds(1));
            }
        };
        servlet.clients = new ClientSessions() {
            @Override
            public GatewaySessions sessions() {
                return sessions;
            }
        };
        servlet.threads = new GatewayThreads(); // never started: these requests are refused before any work is handed over
        servlet.init();
        return servlet;
    }

    private static HttpServletRequest request(String path) {
        return (HttpServletRequest) Proxy.newProxyInstance(McpServlet.class.getClassLoader(),
                new Class<?>[]{HttpServletRequest.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "getServletPath" -> path;
                    default -> null;
                });
    }

    private HttpServletResponse response() {
        ServletOutputStream out = new ServletOutputStream() {
            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setWriteListener(WriteListener listener) {
            }

            @Override
            public void write(int b) {
                body.write(b);
            }
        };
        return (HttpServletResponse) Proxy.newProxyInstance(McpServlet.class.getClassLoader(),
                new Class<?>[]{HttpServletResponse.class}, (proxy, method, args) -> {
                    if (method.getName().equals("setStatus")) {
                        status.set((Integer) args[0]);
                    }
                    return method.getName().equals("getOutputStream") ? out : null;
                });
    }
}
