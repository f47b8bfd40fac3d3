package dev.switchboard.it.cluster;

import dev.switchboard.it.support.Api;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static dev.switchboard.it.cluster.ClusterMembers.A;
import static dev.switchboard.it.cluster.ClusterMembers.B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The audit trail written by both members at once: each member appends its calls' events to the tenant's hash chain in
 * the shared database, taking turns on the tenant's lock row ({@code audit_chain_lock}), so no append collides with or
 * overwrites another member's and the chain stays whole; and each answer waited for its row's commit.
 */
class ClusterAuditIT {

    @RegisterExtension
    static final ClusterMembers cluster = new ClusterMembers();

    static final int WRITERS = 8;
    static final int CALLS_EACH = 6;

    @Test
    void eightConcurrentWritersOnOneTenantLeaveAValidChainWithARowPerCall() throws Exception {
        ClusterTenant tenant = ClusterTenant.create("audited", "{}");
        String token = "audited-" + UUID.randomUUID();
        List<JsonObject> answers = writersAtOnce(tenant, token);

        int calls = WRITERS * CALLS_EACH;
        for (JsonObject answer : answers) {
            assertTrue(answer.containsKey("result"), answer::toString);
        }
        assertEquals(calls, tenant.calls(token), "the backend ran every call once");
        String admin = A.login("admin", Api.ADMIN_PASSWORD);
        // an answer goes out only once its row is committed: every row is there as the last answer arrives
        int rows = A.get("/api/audit?limit=500&decision=allow&tenant=" + tenant.id + "&tool=" + tenant.backend + "__count",
                admin).expect(200).json().getJsonArray("data").size();
        assertEquals(calls, rows, "one audit row per call, none lost, none twice");

        long tenantRows = Long.parseLong(ClusterMembers.database(
                "select count(*) from audit_event where tenant_id = '" + tenant.id + "'"));
        assertEquals(String.valueOf(tenantRows), ClusterMembers.database(
                "select max(chain_seq) from audit_event where tenant_id = '" + tenant.id + "'"), "sequence numbers without a gap");
        for (ClusterMembers.Member member : List.of(A, B)) {
            JsonObject verified = member.get("/api/audit/verify?tenant=" + tenant.id, admin).expect(200).json();
            assertTrue(verified.getBoolean("valid"), () -> member + ": " + verified);
            assertEquals(tenantRows, verified.getJsonNumber("checked").longValue(), () -> member + " walked every row: " + verified);
        }
    }

    /**
     * {@value #WRITERS} writers (clients with a session each), released together, each making {@value #CALLS_EACH}
     * calls one after another, alternating between A and B (half start on each): both members append to the tenant's
     * chain at the same time.
     */
    private static List<JsonObject> writersAtOnce(ClusterTenant tenant, String token) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(WRITERS);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<CompletableFuture<List<JsonObject>>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                String session = tenant.openSession(writer % 2 == 0 ? A : B);
                writers.add(CompletableFuture.supplyAsync(() -> {
                    awaitQuietly(go);
                    List<JsonObject> answers = new ArrayList<>();
                    for (int i = 0; i < CALLS_EACH; i++) {
                        answers.add(tenant.count((writer + i) % 2 == 0 ? A : B, session, token, 0, null));
                    }
                    return answers;
                }, threads));
            }
            go.countDown();
            List<JsonObject> all = new ArrayList<>();
            for (CompletableFuture<List<JsonObject>> writer : writers) {
                all.addAll(writer.get(180, TimeUnit.SECONDS));
            }
            return all;
        } finally {
            threads.shutdownNow();
        }
    }

    private static void awaitQuietly(CountDownLatch go) {
        try {
            go.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
