package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.PolicyTenant;
import dev.switchboard.it.support.TestServer;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No answered call without its audit row, even through a crash: 8 clients call a tool through {@code /mcp} at a
 * steady pace, the server is killed ({@code kill -9}, no shutdown) in the middle of it and started again; then every
 * call a client saw answered has its audit row (found by the trace id the client sent) and the tenant's chain is whole.
 * Before answers waited for their rows, the same run found answered calls without a row.
 */
class GatewayAuditCrashIT {

    private static final int CLIENTS = 8;
    private static final long INTERVAL_MILLIS = 25;
    private static final long KILL_AFTER_MILLIS = 3_000;

    @RegisterExtension
    static final PolicyTenant tenant = new PolicyTenant("crash", "crashed");

    @Test
    void everyCallAnsweredBeforeAKillHasItsAuditRow() throws Exception {
        Set<String> answered = ConcurrentHashMap.newKeySet();
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger withheld = new AtomicInteger();
        List<String> sessions = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            sessions.add(McpHttp.newSession(tenant.userToken()));
        }
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        long started = System.nanoTime();
        long stopAt = started + TimeUnit.MILLISECONDS.toNanos(KILL_AFTER_MILLIS + 1_000);
        List<Future<?>> running = new ArrayList<>();
        for (String session : sessions) {
            running.add(clients.submit(() -> callUntil(session, stopAt, sent, answered, withheld)));
        }
        Thread.sleep(KILL_AFTER_MILLIS);
        int answeredBeforeKill = answered.size();
        TestServer.kill();
        for (Future<?> client : running) {
            client.get(60, TimeUnit.SECONDS);
        }
        clients.shutdownNow();
        TestServer.start();

        Set<String> audited = auditedTraces(tenant.id());
        Set<String> missing = new HashSet<>(answered);
        missing.removeAll(audited);
        System.out.printf("GatewayAuditCrashIT: %d calls sent, %d answered (%d before the kill), %d withheld as not audited, "
                + "%d audit rows, %d answered calls without a row%n", sent.get(), answered.size(), answeredBeforeKill,
                withheld.get(), audited.size(), missing.size());
        assertTrue(answeredBeforeKill > CLIENTS * 10, "the clients were answered before the kill: " + answeredBeforeKill);
        assertEquals(Set.of(), missing, "answered calls without their audit row");
        JsonObject chain = Api.get("/api/audit/verify?tenant=" + tenant.id(), Api.adminToken()).expect(200).json();
        assertTrue(chain.getBoolean("valid"), chain.toString());
        assertEquals(audited.size(), chain.getInt("checked"), "one chained row per audited call");
    }

    /** Calls at a steady pace (each call due {@link #INTERVAL_MILLIS} after the last was due) until {@code stopAt}. */
    private static void callUntil(String session, long stopAt, AtomicInteger sent, Set<String> answered, AtomicInteger withheld) {
        long due = System.nanoTime();
        while (due < stopAt) {
            String trace = UUID.randomUUID().toString().replace("-", "");
            String body = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", sent.incrementAndGet()).add("method", "tools/call")
                    .add("params", Json.createObjectBuilder().add("name", tenant.backend() + "__count")
                            .add("arguments", Json.createObjectBuilder().add("token", trace))).build().toString();
            try {
                HttpResponse<String> reply = McpHttp.inSession(tenant.userToken(), session, body,
                        "traceparent", "00-" + trace + "-00f067aa0ba902b7-01");
                if (reply.statusCode() == 200) {
                    JsonObject answer = McpHttp.response(reply);
                    if (answer.containsKey("result")) {
                        answered.add(trace);
                    } else if (answer.getJsonObject("error").getInt("code") == -32050) {
                        withheld.incrementAndGet();
                    }
                }
            } catch (AssertionError | RuntimeException e) {
                // the server is gone: this call was not answered
            }
            due += TimeUnit.MILLISECONDS.toNanos(INTERVAL_MILLIS);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                sleep(TimeUnit.NANOSECONDS.toMillis(wait));
            }
        }
    }

    /** The trace ids of every audit event of the tenant, paged through {@code GET /api/audit}. */
    private static Set<String> auditedTraces(String tenantId) {
        Set<String> traces = new HashSet<>();
        String cursor = null;
        do {
            JsonObject page = Api.get("/api/audit?tenant=" + tenantId + "&limit=500" + (cursor == null ? "" : "&cursor=" + cursor),
                    Api.adminToken()).expect(200).json();
            page.getJsonArray("data").forEach(e -> traces.add(e.asJsonObject().getString("traceId", "")));
            cursor = page.containsKey("nextCursor") ? page.getString("nextCursor") : null;
        } while (cursor != null);
        return traces;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
