package dev.switchboard.it.query;

import jakarta.json.Json;
import jakarta.json.JsonObject;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** A client of seed 000's TCP transport: one JSON message per line, answers matched to requests by id. */
final class QueryTcpClient implements AutoCloseable {

    static final int PORT = Integer.getInteger("it.query.port", 18765);

    private final Socket socket;
    private final OutputStream out;
    private final BufferedReader in;
    private final AtomicInteger ids = new AtomicInteger();
    /** Messages read while waiting for another answer (notifications, answers to other requests). */
    final List<JsonObject> other = new ArrayList<>();

    QueryTcpClient() throws IOException {
        socket = new Socket("127.0.0.1", PORT);
        socket.setSoTimeout(30_000);
        out = socket.getOutputStream();
        in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
    }

    void sendLine(String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    String send(String method, JsonObject params) throws IOException {
        String id = method + "-" + ids.incrementAndGet();
        sendLine(Json.createObjectBuilder().add("type", "request").add("id", id).add("method", method).add("params", params).build().toString());
        return id;
    }

    JsonObject read() throws IOException {
        String line = in.readLine();
        if (line == null) {
            throw new IOException("connection closed");
        }
        return Json.createReader(new StringReader(line)).readObject();
    }

    JsonObject answer(String id) throws IOException {
        for (JsonObject m : List.copyOf(other)) {
            if (m.containsKey("id") && m.get("id").toString().equals("\"" + id + "\"")) {
                other.remove(m);
                return m;
            }
        }
        while (true) {
            JsonObject m = read();
            if (m.containsKey("id") && m.get("id").toString().equals("\"" + id + "\"")) {
                return m;
            }
            other.add(m);
        }
    }

    JsonObject call(String method, JsonObject params) throws IOException {
        return answer(send(method, params));
    }

    JsonObject result(String method, JsonObject params) throws IOException {
        JsonObject answer = call(method, params);
        if (!answer.containsKey("result")) {
            throw new AssertionError(method + " failed: " + answer);
        }
        return answer.getJsonObject("result");
    }

    /** Negotiates 1.0.0 and authenticates with the token. */
    QueryTcpClient ready(String token) throws IOException {
        result("protocol.negotiate", params("{\"versions\":[\"1.0.0\"]}"));
        result("auth.authenticate", Json.createObjectBuilder().add("token", token).build());
        return this;
    }

    /** The error code of an answer. */
    static int code(JsonObject answer) {
        return answer.getJsonObject("error").getInt("code");
    }

    static JsonObject params(String json) {
        return Json.createReader(new StringReader(json)).readObject();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
