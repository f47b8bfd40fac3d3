package dev.switchboard.it;

import dev.switchboard.llm.ScriptedProvider;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** What the chat integration tests share: the scripted provider the IT server is pointed at, and small helpers. */
final class ChatFixture {

    /** The port the build's IT server expects the provider on ({@code it.llm.port} in pom.xml). */
    static final int LLM_PORT = Integer.getInteger("it.llm.port", 18499);

    private ChatFixture() {
    }

    static ScriptedProvider startProvider() {
        return ScriptedProvider.start(LLM_PORT);
    }

    static String name(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 6);
    }

    /** A server-everything backend registered by {@code token}, with the given tools auto-approved. */
    static long server(String token, String name, String url, List<String> autoApprove, List<String> disabled) {
        JsonArrayBuilder auto = Json.createArrayBuilder();
        autoApprove.forEach(auto::add);
        JsonArrayBuilder off = Json.createArrayBuilder();
        disabled.forEach(off::add);
        return Api.post("/api/mcp-servers", token, Json.createObjectBuilder().add("name", name).add("baseUrl", url)
                .add("autoApproveTools", auto).add("disabledTools", off).build()).expect(201).json().getJsonNumber("id").longValue();
    }

    static long assistant(String token, long... serverIds) {
        JsonArrayBuilder ids = Json.createArrayBuilder();
        for (long id : serverIds) {
            ids.add(id);
        }
        return Api.post("/api/assistants", token, Json.createObjectBuilder().add("name", name("assistant"))
                .add("systemPrompt", "You are a careful assistant.").add("mcpServerIds", ids).build())
                .expect(201).json().getJsonNumber("id").longValue();
    }

    static JsonObject user(String text) {
        return Json.createObjectBuilder().add("role", "user").add("content", text).build();
    }

    /** One line of an event stream and when it arrived. */
    record Line(String text, long atMillis) {
        JsonObject json() {
            try (var reader = Json.createReader(new StringReader(text.substring("data: ".length())))) {
                return reader.readObject();
            }
        }
    }

    record Streamed(int status, String contentType, List<Line> lines, long startedMillis) {
        List<JsonObject> chunks() {
            return lines.stream().filter(l -> l.text().startsWith("data: {")).map(Line::json).toList();
        }

        List<String> dataLines() {
            return lines.stream().map(Line::text).filter(t -> t.startsWith("data: ")).toList();
        }
    }

    /**
     * A client that speaks HTTP/1.1 only. The JDK's default asks plain-HTTP servers for an h2c upgrade, and Liberty
     * 26.0.0.3 sometimes fails that upgrade with a NullPointerException in {@code handleHTTP2UpgradeRequest} when many
     * arrive at once (seen in its FFDC log), leaving the request unanswered; SSE clients use HTTP/1.1 anyway.
     */
    static HttpClient http1() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    /** Posts a body and reads the answer line by line, noting when each line arrived. */
    static Streamed stream(String token, JsonObject body) throws Exception {
        Api.awaitReady();
        HttpRequest request = HttpRequest.newBuilder(URI.create(Api.BASE + "/api/chat/completions"))
                .timeout(Duration.ofSeconds(60)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body.toString())).build();
        long started = System.currentTimeMillis();
        HttpResponse<java.util.stream.Stream<String>> response = http1().send(request, HttpResponse.BodyHandlers.ofLines());
        List<Line> lines = new ArrayList<>();
        response.body().forEach(line -> {
            if (!line.isEmpty()) {
                lines.add(new Line(line, System.currentTimeMillis()));
            }
        });
        return new Streamed(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""), lines, started);
    }
}
