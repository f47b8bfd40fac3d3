package dev.switchboard.it.cluster;

import dev.switchboard.it.support.Api;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static dev.switchboard.it.cluster.ClusterMembers.A;
import static dev.switchboard.it.cluster.ClusterMembers.ALL;
import static dev.switchboard.it.cluster.ClusterMembers.B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The short-lived state the members share through Hazelcast: a tenant's rate limit holds across both, one idempotency
 * key runs its tool once whichever members its calls reach, and failed sign-ins on one member count on the other.
 */
class ClusterSharedStateIT {

    @RegisterExtension
    static final ClusterMembers cluster = new ClusterMembers();

    /** A limit of 10 per minute refills one permit every 6 s (greedily, as a token bucket does). */
    static final Duration PERMIT_REFILLED_EVERY = Duration.ofSeconds(6);

    @Test
    void aLimitOfTenPerMinuteAdmitsExactlyTenAcrossBothMembers() throws Exception {
        ClusterTenant tenant = ClusterTenant.create("limited", "{'rateLimit':{'requests':10,'per':'minute','burst':10}}");
        String session = tenant.openSession(A);
        for (ClusterMembers.Member member : List.of(A, B)) {
            tenant.listTools(member, session);
        }
        String token = "limit-" + UUID.randomUUID();
        long started = System.nanoTime();
        List<JsonObject> answers = atOnce(20, i -> tenant.count(ALL.get(i % ALL.size()), session, token, 0, null));
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        long admitted = answers.stream().filter(a -> a.containsKey("result")).count();
        long limited = answers.stream().filter(a -> a.containsKey("error") && a.getJsonObject("error").getInt("code") == -32010).count();
        // exactly 10 when the 20 calls took less than a refill; on a machine so loaded that they did not, each refill
        // may admit one more (members keeping a bucket each would admit all 20 until the calls spread over a minute)
        long refills = took.toMillis() / PERMIT_REFILLED_EVERY.toMillis();
        String seen = "admitted across A, B and the proxy within " + took.toMillis() + " ms: " + answers;
        if (refills == 0) {
            assertEquals(10, admitted, seen);
        } else {
            assertTrue(admitted >= 10 && admitted <= 10 + refills, "10 to " + (10 + refills) + " " + seen);
        }
        assertEquals(20 - admitted, limited, () -> "the others are rate_limited: " + answers);
        assertEquals(admitted, tenant.calls(token), "the backend ran exactly the admitted calls");
    }

    @Test
    void oneIdempotencyKeySentToBothMembersAtOnceRunsTheToolOnce() throws Exception {
        ClusterTenant tenant = ClusterTenant.create("idempotent", "{}");
        String session = tenant.openSession(B);
        String token = "once-" + UUID.randomUUID();
        String key = "key-" + UUID.randomUUID();
        // the first call takes 2 s in the tool: the others arrive while it runs, on both members
        List<JsonObject> answers = atOnce(6, i -> tenant.count(ALL.get(i % ALL.size()), session, token, 2000, key));
        for (JsonObject answer : answers) {
            assertEquals("call 1", ClusterTenant.text(answer), answer::toString);
        }
        assertEquals(1, tenant.calls(token), "the tool ran once for six calls with one key on A, B and the proxy");
        for (ClusterMembers.Member member : List.of(A, B)) {
            assertEquals("call 1", ClusterTenant.text(tenant.count(member, session, token, 2000, key)),
                    "answered again afterwards by " + member);
            JsonObject other = tenant.count(member, session, token, 0, key);
            assertEquals(-32602, other.getJsonObject("error").getInt("code"), other::toString);
            assertEquals("Invalid params: idempotency key '" + key + "' was already used for a different call (tool or"
                    + " arguments differ)", other.getJsonObject("error").getString("message"), "other arguments on " + member);
        }
        assertEquals(1, tenant.calls(token), "neither the answer again nor the refusal ran the tool");
        assertEquals("call 2", ClusterTenant.text(tenant.count(B, session, token, 0, null)), "a call without the key runs");
    }

    @Test
    void failedSignInsOnOneMemberCountOnTheOther() {
        String admin = A.login("admin", Api.ADMIN_PASSWORD);
        String name = "guessed-" + UUID.randomUUID().toString().substring(0, 8);
        A.post("/api/users", admin, Json.createObjectBuilder().add("username", name).add("password", "password-" + name)
                .add("role", "user").add("tenant", "default").build()).expect(201);
        ClusterMembers.Member[] alternating = {A, B, A, B};
        for (ClusterMembers.Member member : alternating) {
            assertEquals(401, attempt(member, name, "wrong").status(), "free failures (3), then one more: 401 on " + member);
        }
        // four failures in all, two on each: past the three free ones only if the members count together
        for (ClusterMembers.Member member : ALL) {
            Api.Reply throttled = attempt(member, name, "password-" + name);
            assertEquals(429, throttled.status(), () -> member + ": " + throttled.text());
            assertEquals("too_many_attempts", throttled.errorCode());
        }
    }

    private static Api.Reply attempt(ClusterMembers.Member member, String username, String password) {
        return member.post("/api/auth/token", null, Json.createObjectBuilder().add("username", username)
                .add("password", password).build());
    }

    /** {@code count} calls made at the same moment from as many threads; their answers in order. */
    private static List<JsonObject> atOnce(int count, java.util.function.IntFunction<JsonObject> call) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(count);
        try {
            List<CompletableFuture<JsonObject>> calls = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                calls.add(CompletableFuture.supplyAsync(() -> call.apply(index), threads));
            }
            List<JsonObject> answers = new ArrayList<>();
            for (CompletableFuture<JsonObject> answer : calls) {
                answers.add(answer.get(120, TimeUnit.SECONDS));
            }
            return answers;
        } finally {
            threads.shutdownNow();
        }
    }
}
