package dev.switchboard.mcp.transport;

import com.sun.net.httpserver.HttpExchange;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** What the small MCP servers of these tests (the JDK's HttpServer) read and answer. */
final class TestHttpExchanges {

    private TestHttpExchanges() {
    }

    static void respond(HttpExchange exchange, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", contentType);
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    static JsonObject readJson(InputStream in) {
        try (JsonReader reader = Json.createReader(in)) {
            return reader.readObject();
        }
    }
}
