import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bridges an MCP client that only speaks stdio (desktop apps) to a running Switchboard's {@code /mcp}: each line on
 * stdin is one JSON-RPC message, POSTed with the token; JSON answers and every SSE event (progress, a backend's
 * requests, the response) come back as lines on stdout; after {@code initialize} the session's GET stream carries
 * what the server starts, resumed with {@code Last-Event-ID} when it drops. End of stdin ends the session (DELETE).
 * <p>
 * A single source file with no dependencies: {@code java SwitchboardStdio.java} (Java 17+). Environment:
 * {@code SWITCHBOARD_TOKEN} (required: a token or API key), {@code SWITCHBOARD_URL} (default
 * {@code http://localhost:8080/mcp}). Diagnostics go to stderr, never stdout.
 */
public final class SwitchboardStdio {

    private static final Pattern VERSION = Pattern.compile("\"protocolVersion\"\\s*:\\s*\"([^\"]+)\"");
    private static final Duration RETRY = Duration.ofSeconds(1);
    /** The {@code message} of an error answer, REST ({@code {"error":{"message"...}}}) or JSON-RPC alike. */
    private static final Pattern MESSAGE = Pattern.compile("\"message\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern DESCRIPTION = Pattern.compile("error_description=\"([^\"]*)\"");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final URI endpoint;
    private final String token;
    private final PrintStream out;
    private volatile String sessionId;
    private volatile String protocolVersion;
    private volatile boolean closing;

    private SwitchboardStdio(URI endpoint, String token, PrintStream out) {
        this.endpoint = endpoint;
        this.token = token;
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        String token = System.getenv("SWITCHBOARD_TOKEN");
        if (token == null || token.isBlank()) {
            System.err.println("switchboard-stdio: set SWITCHBOARD_TOKEN to a Switchboard token or API key");
            System.exit(2);
        }
        String url = System.getenv().getOrDefault("SWITCHBOARD_URL", "http://localhost:8080/mcp");
        PrintStream stdout = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        new SwitchboardStdio(URI.create(url), token.strip(), stdout).run(System.in);
    }

    private void run(InputStream in) throws Exception {
        BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        String line;
        while ((line = lines.readLine()) != null) {
            if (!line.isBlank()) {
                post(line.strip());
            }
        }
        closing = true;
        if (sessionId != null) {
            try {
                http.send(request().DELETE().build(), HttpResponse.BodyHandlers.discarding());
            } catch (java.io.IOException e) {
                System.err.println("switchboard-stdio: could not end the session: " + e);
            }
        }
    }

    /** Initialize is answered before anything else is sent (its session id goes on every later message). */
    private void post(String message) throws Exception {
        HttpRequest post = request().header("Accept", "application/json, text/event-stream")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(message, StandardCharsets.UTF_8)).build();
        if (sessionId == null) {
            try {
                relay(message, http.send(post, HttpResponse.BodyHandlers.ofInputStream()));
            } catch (java.io.IOException e) {
                answerFailure(message, "Switchboard could not be reached at " + endpoint + ": " + e);
            }
            return;
        }
        http.sendAsync(post, HttpResponse.BodyHandlers.ofInputStream()).whenComplete((response, error) -> {
            if (error != null) {
                answerFailure(message, "Switchboard could not be reached: " + error.getMessage());
            } else {
                relay(message, response);
            }
        });
    }

    private void relay(String message, HttpResponse<InputStream> response) {
        String contentType = response.headers().firstValue("Content-Type").orElse("");
        try (InputStream body = response.body()) {
            if (response.statusCode() == 202) {
                return;
            }
            if (contentType.startsWith("text/event-stream")) {
                readEvents(body);
                return;
            }
            String text = new String(body.readAllBytes(), StandardCharsets.UTF_8).strip();
            if (response.statusCode() == 200) {
                if (sessionId == null) {
                    opened(response, text);
                }
                write(text);
            } else {
                answerFailure(message, failure(response.statusCode(), text, response.headers()));
            }
        } catch (Exception e) {
            answerFailure(message, "the answer from Switchboard broke off: " + e.getMessage());
        }
    }

    private void opened(HttpResponse<?> response, String initializeAnswer) {
        response.headers().firstValue("Mcp-Session-Id").ifPresent(id -> {
            Matcher version = VERSION.matcher(initializeAnswer);
            protocolVersion = version.find() ? version.group(1) : null;
            sessionId = id;
            Thread stream = new Thread(this::serverStream, "switchboard-stdio-get");
            stream.setDaemon(true);
            stream.start();
        });
    }

    /** The session's GET stream, reopened after a drop from the last event id it saw. */
    private void serverStream() {
        String lastEventId = null;
        while (!closing) {
            HttpRequest.Builder get = request().header("Accept", "text/event-stream").GET();
            if (lastEventId != null) {
                get.header("Last-Event-ID", lastEventId);
            }
            try {
                HttpResponse<InputStream> response = http.send(get.build(), HttpResponse.BodyHandlers.ofInputStream());
                if (response.statusCode() == 404 || response.statusCode() == 405) {
                    return;
                }
                if (response.statusCode() == 200) {
                    lastEventId = readEvents(response.body(), lastEventId);
                } else {
                    response.body().close();
                }
            } catch (Exception e) {
                System.err.println("switchboard-stdio: server stream dropped: " + e.getMessage());
            }
            sleep(RETRY);
        }
    }

    private void readEvents(InputStream body) throws Exception {
        readEvents(body, null);
    }

    /** Writes each event's data as one line; returns the last event id seen. */
    private String readEvents(InputStream body, String lastEventId) throws Exception {
        try (BufferedReader events = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            StringBuilder data = new StringBuilder();
            String line;
            while ((line = events.readLine()) != null) {
                if (line.isEmpty()) {
                    if (!data.isEmpty()) {
                        write(data.toString());
                    }
                    data.setLength(0);
                } else if (line.startsWith("id:")) {
                    lastEventId = line.substring(3).strip();
                } else if (line.startsWith("data:")) {
                    String value = line.substring(5);
                    data.append(value.startsWith(" ") ? value.substring(1) : value);
                }
            }
        }
        return lastEventId;
    }

    /**
     * Why Switchboard did not answer, in its own words: the message of its error answer, else the description in its
     * challenge. A refused token is named as such, so whoever set SWITCHBOARD_TOKEN learns what to fix.
     */
    static String failure(int status, String body, java.net.http.HttpHeaders headers) {
        Matcher said = MESSAGE.matcher(body);
        String reason;
        if (said.find()) {
            reason = said.group(1).replace("\\\"", "\"").replace("\\\\", "\\");
        } else {
            Matcher described = DESCRIPTION.matcher(headers.firstValue("WWW-Authenticate").orElse(""));
            reason = described.find() ? described.group(1) : body.isEmpty() ? "no reason given" : body;
        }
        return switch (status) {
            case 401 -> "Switchboard refused the token in SWITCHBOARD_TOKEN (HTTP 401): " + reason;
            case 403 -> "Switchboard refused the request (HTTP 403): " + reason;
            default -> "Switchboard answered HTTP " + status + ": " + reason;
        };
    }

    /** A request the gateway could not answer still gets an answer, so the client is not left waiting. */
    private void answerFailure(String message, String reason) {
        System.err.println("switchboard-stdio: " + reason);
        String id = TopLevelId.of(message);
        if (id != null && message.contains("\"method\"")) {
            write("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"error\":{\"code\":-32603,\"message\":" + quote(reason) + "}}");
        }
    }

    private HttpRequest.Builder request() {
        HttpRequest.Builder builder = HttpRequest.newBuilder(endpoint).header("Authorization", "Bearer " + token);
        if (sessionId != null) {
            builder.header("Mcp-Session-Id", sessionId);
        }
        if (protocolVersion != null) {
            builder.header("MCP-Protocol-Version", protocolVersion);
        }
        return builder;
    }

    private synchronized void write(String line) {
        out.println(line.replace("\n", "").replace("\r", ""));
        out.flush();
    }

    private static String quote(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format("\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The raw JSON text of a message's top-level {@code id} (nested ids in params are skipped), or null. */
    static final class TopLevelId {

        static String of(String json) {
            int depth = 0;
            boolean expectKey = false;
            for (int i = 0; i < json.length(); i++) {
                char c = json.charAt(i);
                if (c == '"') {
                    int end = endOfString(json, i);
                    if (depth == 1 && expectKey && json.substring(i + 1, end).equals("id")) {
                        int colon = json.indexOf(':', end + 1);
                        int valueEnd = colon + 1;
                        while (valueEnd < json.length() && ",}".indexOf(json.charAt(valueEnd)) < 0) {
                            valueEnd = json.charAt(valueEnd) == '"' ? endOfString(json, valueEnd) + 1 : valueEnd + 1;
                        }
                        return json.substring(colon + 1, valueEnd).strip();
                    }
                    expectKey = false;
                    i = end;
                } else if (c == '{' || c == '[') {
                    depth++;
                    expectKey = c == '{';
                } else if (c == '}' || c == ']') {
                    depth--;
                } else if (c == ',') {
                    expectKey = true;
                }
            }
            return null;
        }

        private static int endOfString(String json, int start) {
            int i = start + 1;
            while (i < json.length() && json.charAt(i) != '"') {
                i += json.charAt(i) == '\\' ? 2 : 1;
            }
            return i;
        }
    }
}
