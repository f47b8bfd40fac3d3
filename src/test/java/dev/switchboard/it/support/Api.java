package dev.switchboard.it.support;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A small HTTP client for the Switchboard started by the build (black-box: only its public API). */
public final class Api {

    public static final String BASE = System.getProperty("it.base.url", "http://localhost:18080");
    public static final String ADMIN_PASSWORD = System.getProperty("it.admin.password", "it-admin-password");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static volatile boolean ready;

    private Api() {
    }

    /** A response with its body parsed when it is JSON. */
    public record Reply(int status, java.net.http.HttpHeaders headers, String text) {

        public JsonObject json() {
            try (var reader = Json.createReader(new StringReader(text))) {
                return reader.readObject();
            }
        }

        public String errorCode() {
            return json().getJsonObject("error").getString("code");
        }

        public String errorMessage() {
            return json().getJsonObject("error").getString("message");
        }

        public Reply expect(int expected) {
            assertEquals(expected, status, () -> "HTTP " + status + ": " + text);
            return this;
        }
    }

    public static Reply get(String path, String token) {
        return send("GET", path, token, null);
    }

    public static Reply post(String path, String token, Object body) {
        return send("POST", path, token, body);
    }

    public static Reply put(String path, String token, Object body) {
        return send("PUT", path, token, body);
    }

    public static Reply delete(String path, String token) {
        return send("DELETE", path, token, null);
    }

    /** Sends a body (a JsonValue, or a raw string sent as is) with an optional bearer token. */
    public static Reply send(String method, String path, String token, Object body) {
        return send(method, path, token, body == null ? null : "application/json", body);
    }

    /**
     * Like {@link #send(String, String, String, Object)} with a content type of the caller's choice (null: none);
     * a {@code byte[]} body is sent as it is (files, multipart bodies).
     */
    public static Reply send(String method, String path, String token, String contentType, Object body) {
        awaitReady();
        return sendTo(BASE, method, path, token, contentType, body);
    }

    /** Sends to the server at {@code base} (another than the IT server: a cluster member), without waiting for it. */
    public static Reply sendTo(String base, String method, String path, String token, String contentType, Object body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : body instanceof byte[] bytes ? HttpRequest.BodyPublishers.ofByteArray(bytes)
                : HttpRequest.BodyPublishers.ofString(body.toString()));
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), response.headers(), response.body());
        } catch (Exception e) {
            throw new AssertionError(method + " " + path + " failed: " + e, e);
        }
    }

    public static String login(String username, String password) {
        Reply reply = post("/api/auth/token", null, Json.createObjectBuilder()
                .add("username", username).add("password", password).build()).expect(200);
        return reply.json().getString("access_token");
    }

    private static volatile String adminToken;

    /**
     * The admin's token, signed in once per test run and reused (it lives 8 hours, and a sign-in costs 600,000
     * PBKDF2 iterations of the server's CPU: the ITs asked for it over 60 times).
     */
    public static String adminToken() {
        String token = adminToken;
        if (token == null) {
            token = login("admin", ADMIN_PASSWORD);
            adminToken = token;
        }
        return token;
    }

    /** A new local user with role {@code user} in tenant {@code tenant}; returns its token. */
    public static String newUser(String tenant) {
        String name = "user-" + UUID.randomUUID().toString().substring(0, 8);
        post("/api/users", adminToken(), Json.createObjectBuilder().add("username", name)
                .add("password", "password-" + name).add("role", "user").add("tenant", tenant).build()).expect(201);
        return login(name, "password-" + name);
    }

    /** The subject the server knows the caller by. */
    public static String subjectOf(String token) {
        return get("/api/auth/me", token).expect(200).json().getString("subject");
    }

    /** After a restart: wait for readiness again. */
    public static void awaitRestart() {
        ready = false;
        awaitReady();
    }

    /** Waits (bounded) until the application answers its readiness check. */
    public static void awaitReady() {
        if (ready) {
            return;
        }
        Instant deadline = Instant.now().plusSeconds(90);
        while (Instant.now().isBefore(deadline)) {
            try {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(BASE + "/health/ready")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    ready = true;
                    return;
                }
            } catch (Exception ignored) {
                // not listening yet
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for the server");
            }
        }
        throw new AssertionError("Switchboard at " + BASE + " did not become ready within 90 s");
    }

    /** Audit writing is asynchronous: wait (bounded) until at least {@code count} such events of the tenant landed. */
    public static jakarta.json.JsonArray awaitAuditEvents(String tenant, String tool, String decision, int count) {
        Instant deadline = Instant.now().plusSeconds(15);
        jakarta.json.JsonArray data = JsonValue.EMPTY_JSON_ARRAY;
        while (Instant.now().isBefore(deadline)) {
            data = get("/api/audit?tenant=" + tenant + "&tool=" + tool + "&decision=" + decision, adminToken())
                    .expect(200).json().getJsonArray("data");
            if (data.size() >= count) {
                return data;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError("only " + data.size() + " " + decision + " events for " + tool + " within 15 s");
    }
}
