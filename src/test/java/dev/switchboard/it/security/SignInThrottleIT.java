package dev.switchboard.it.security;

import dev.switchboard.it.support.Api;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Password guessing on {@code POST /api/auth/token}: free failures, then growing delays, then a lock that the right
 * password does not get past and an administrator lifts; unknown names get the very same answers; every failure and
 * the lock are in the audit trail, with the client's address. The IT server runs with short delays (pom:
 * switchboard.login.first-delay PT0.2S, max-delay PT0.4S) so the test waits seconds, not minutes, and without the
 * per-address limit (every IT signs in from 127.0.0.1, and this test alone fails 20 times): the address rules and
 * the production defaults are SignInThrottleTest's.
 */
class SignInThrottleIT {

    static String admin;

    @BeforeAll
    static void start() {
        Api.awaitReady();
        admin = Api.adminToken();
    }

    static JsonObject credentials(String username, String password) {
        return Json.createObjectBuilder().add("username", username).add("password", password).build();
    }

    static Api.Reply attempt(String username, String password) {
        return Api.post("/api/auth/token", null, credentials(username, password));
    }

    static void pause(Api.Reply throttled) throws InterruptedException {
        Thread.sleep(Long.parseLong(throttled.headers().firstValue("Retry-After").orElseThrow()) * 1000);
    }

    /** Wrong passwords until the lock; returns the answers' bodies of the free failures and of the first throttle. */
    static String[] guessUntilLocked(String username) throws InterruptedException {
        String refused = null;
        for (int i = 0; i < 4; i++) {
            refused = attempt(username, "guess-" + i).expect(401).text();
        }
        Api.Reply throttled = attempt(username, "guess-5").expect(429);
        assertEquals("too_many_attempts", throttled.errorCode());
        assertEquals("rate_limit_error", throttled.json().getJsonObject("error").getString("type"));
        assertEquals("1", throttled.headers().firstValue("Retry-After").orElseThrow());
        String firstThrottle = throttled.text();
        for (int failures = 4; failures < 10; failures++) {
            pause(throttled);
            attempt(username, "guess-after-" + failures).expect(401);
            throttled = attempt(username, "guess-at-once").expect(429);
        }
        return new String[] {refused, firstThrottle};
    }

    @Test
    void guessesAreThrottledThenLockedAndAnAdministratorUnlocks() throws Exception {
        String name = "guessed-" + UUID.randomUUID().toString().substring(0, 8);
        String password = "password-" + name;
        Api.post("/api/users", admin, Json.createObjectBuilder().add("username", name).add("password", password)
                .add("role", "user").add("tenant", "default").build()).expect(201);
        long since = Instant.now().toEpochMilli();

        String[] known = guessUntilLocked(name);
        Api.Reply locked = attempt(name, password).expect(429);
        assertEquals("too_many_attempts", locked.errorCode(), "the right password does not get past a lock");
        long retryAfter = Long.parseLong(locked.headers().firstValue("Retry-After").orElseThrow());
        assertTrue(retryAfter > 800 && retryAfter <= 900, "locked for the default 15 minutes: " + retryAfter);

        String[] unknown = guessUntilLocked("nobody-" + UUID.randomUUID().toString().substring(0, 8));
        assertEquals(known[0], unknown[0], "a wrong password and an unknown name: the same 401");
        assertEquals(known[1], unknown[1], "and the same 429");

        JsonArray users;
        try (var reader = Json.createReader(new java.io.StringReader(Api.get("/api/users", admin).expect(200).text()))) {
            users = reader.readArray();
        }
        JsonObject listed = users.stream()
                .map(JsonValue::asJsonObject).filter(u -> u.getString("username").equals(name)).findFirst().orElseThrow();
        assertTrue(listed.getBoolean("locked"));
        Api.post("/api/users/" + name + "/unlock", Api.newUser("default"), JsonValue.EMPTY_JSON_OBJECT).expect(403);
        assertEquals("user_not_found", Api.post("/api/users/no-such-user/unlock", admin, JsonValue.EMPTY_JSON_OBJECT).expect(404).errorCode());
        JsonObject unlocked = Api.post("/api/users/" + name + "/unlock", admin, JsonValue.EMPTY_JSON_OBJECT).expect(200).json();
        assertTrue(unlocked.getBoolean("wasLocked"));
        Api.login(name, password);
        for (int i = 0; i < 3; i++) {
            attempt(name, "after-unlock-" + i).expect(401); // the count started again from zero
        }
        Api.login(name, password);

        JsonArray denied = awaitEvents(name, "deny", since, 11);
        assertEquals(10 + 3, denied.stream().filter(e -> "invalid_credentials".equals(e.asJsonObject().getString("outcome", "")))
                .count(), "every wrong password is in the trail");
        assertTrue(denied.stream().anyMatch(e -> "throttled".equals(e.asJsonObject().getString("outcome", ""))));
        JsonObject lock = awaitEvents(name, "lock", since, 1).getJsonObject(0);
        assertEquals("auth/lock", lock.getString("action"));
        assertEquals("account_locked", lock.getString("outcome"));
        assertTrue(lock.getString("clientId").matches("ip:(127\\.0\\.0\\.1|0:0:0:0:0:0:0:1|::1)"), lock::toString);
        assertEquals("auth/unlock", awaitEvents(name, "unlock", since, 1).getJsonObject(0).getString("action"));
    }

    static JsonArray awaitEvents(String subject, String decision, long since, int count) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(15);
        JsonArray data = JsonValue.EMPTY_JSON_ARRAY;
        while (Instant.now().isBefore(deadline)) {
            data = Api.get("/api/audit?tenant=default&subject=" + subject + "&decision=" + decision + "&from=" + since
                    + "&limit=100", admin).expect(200).json().getJsonArray("data");
            if (data.size() >= count) {
                return data;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("only " + data.size() + " " + decision + " events for " + subject);
    }
}
