package dev.switchboard.it.support;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** What the chat tests share: registering what an assistant uses, asking, reading streamed answers and stored runs. */
public final class Chat {

    private Chat() {
    }

    /** A server-everything backend registered by {@code token}, with the given tools auto-approved. */
    public static long server(String token, String name, String url, List<String> autoApprove, List<String> disabled) {
        JsonArrayBuilder auto = Json.createArrayBuilder();
        autoApprove.forEach(auto::add);
        JsonArrayBuilder off = Json.createArrayBuilder();
        disabled.forEach(off::add);
        return Servers.register(token, Json.createObjectBuilder().add("name", name).add("baseUrl", url)
                .add("autoApproveTools", auto).add("disabledTools", off).build());
    }

    public static long assistant(String token, long... serverIds) {
        JsonArrayBuilder ids = Json.createArrayBuilder();
        for (long id : serverIds) {
            ids.add(id);
        }
        return Api.post("/api/assistants", token, Json.createObjectBuilder().add("name", Names.unique("assistant"))
                .add("systemPrompt", "You are a careful assistant.").add("mcpServerIds", ids).build())
                .expect(201).json().getJsonNumber("id").longValue();
    }

    public static JsonObject user(String text) {
        return Json.createObjectBuilder().add("role", "user").add("content", text).build();
    }

    /** One line of an event stream and when it arrived. */
    public record Line(String text, long atMillis) {
        public JsonObject json() {
            try (var reader = Json.createReader(new StringReader(text.substring("data: ".length())))) {
                return reader.readObject();
            }
        }
    }

    public record Streamed(int status, String contentType, List<Line> lines, long startedMillis) {
        public List<JsonObject> chunks() {
            return lines.stream().filter(l -> l.text().startsWith("data: {")).map(Line::json).toList();
        }

        public List<String> dataLines() {
            return lines.stream().map(Line::text).filter(t -> t.startsWith("data: ")).toList();
        }
    }

    /**
     * A client that speaks HTTP/1.1 only. The JDK's default asks plain-HTTP servers for an h2c upgrade, and Liberty
     * 26.0.0.3 sometimes fails that upgrade with a NullPointerException in {@code handleHTTP2UpgradeRequest} when many
     * arrive at once (seen in its FFDC log), leaving the request unanswered; SSE clients use HTTP/1.1 anyway.
     */
    public static HttpClient http1() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    /** Posts a body and reads the answer line by line, noting when each line arrived. */
    public static Streamed stream(String token, JsonObject body) throws Exception {
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

    /** What a request to the LLM told it as the result of call {@code callId}. */
    public static String toolMessage(JsonArray messages, String callId) {
        return messages.getValuesAs(JsonObject.class).stream().filter(m -> callId.equals(m.getString("tool_call_id", null)))
                .findFirst().orElseThrow().getString("content");
    }

    /**
     * The message whose tool call waits for approval in the run of {@code session}, found by the session as a client
     * that only knows what it sent would find it, from a second connection.
     */
    public static long pendingMessage(String token, String session) {
        Instant deadline = Instant.now().plusSeconds(30);
        while (Instant.now().isBefore(deadline)) {
            Optional<JsonObject> conversation = Api.get("/api/conversations", token).expect(200).json().getJsonArray("data")
                    .getValuesAs(JsonObject.class).stream().filter(c -> session.equals(c.getString("sessionId", null))).findFirst();
            if (conversation.isPresent()) {
                JsonArray messages = Api.get("/api/conversations/" + conversation.get().getJsonNumber("id") + "/messages", token)
                        .expect(200).json().getJsonArray("data");
                for (JsonObject m : messages.getValuesAs(JsonObject.class)) {
                    if (m.containsKey("toolCalls") && m.getJsonArray("toolCalls").toString().contains("\"pending\"")) {
                        return m.getJsonNumber("id").longValue();
                    }
                }
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        throw new AssertionError("no pending call for session " + session);
    }
}
