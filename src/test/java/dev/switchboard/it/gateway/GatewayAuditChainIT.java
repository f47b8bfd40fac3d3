package dev.switchboard.it.gateway;

import dev.switchboard.audit.AuditRecord;
import dev.switchboard.audit.AuditSecrets;
import dev.switchboard.audit.AuditWriter;
import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.PolicyTenant;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Eight writers on one tenant's audit chain at once, in two processes: four clients calling a tool through the
 * server's {@code /mcp} (its audit writer appends their rows) and four writers in this test process appending to the
 * same database directly, as another instance of a cluster would. The chain stays whole, with exactly one row per
 * call and per test-side event: appends are serialised per tenant in the database, not in a process.
 */
class GatewayAuditChainIT {

    private static final int PER_WRITER = 40;

    @RegisterExtension
    static final PolicyTenant tenant = new PolicyTenant("chain", "chained");

    @Test
    void eightWritersInTwoProcessesLeaveOneWholeChain() throws Exception {
        List<String> sessions = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sessions.add(McpHttp.newSession(tenant.userToken()));
        }
        ExecutorService writers = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> done = new ArrayList<>();
        for (String session : sessions) {
            done.add(writers.submit(() -> {
                go.await();
                int answered = 0;
                for (int n = 0; n < PER_WRITER; n++) {
                    answered += call(session) ? 1 : 0;
                }
                return answered;
            }));
        }
        for (int w = 0; w < 4; w++) {
            AuditWriter writer = new AuditWriter(serverDatabase(), testSecrets());
            String client = "test-writer-" + w;
            done.add(writers.submit(() -> {
                go.await();
                for (int n = 0; n < PER_WRITER; n++) {
                    writer.write(List.of(new AuditRecord(System.currentTimeMillis(), tenant.id(), client, "test", "tools/call",
                            "elsewhere__tool", "elsewhere", "allow", null, Json.createObjectBuilder().add("n", n).build(), "ok", 1L)));
                }
                return PER_WRITER;
            }));
        }
        go.countDown();
        int events = 0;
        for (Future<Integer> writer : done) {
            events += writer.get(120, TimeUnit.SECONDS);
        }
        writers.shutdownNow();
        assertEquals(8 * PER_WRITER, events, "every gateway call answered");

        JsonObject chain = Api.get("/api/audit/verify?tenant=" + tenant.id(), Api.adminToken()).expect(200).json();
        assertTrue(chain.getBoolean("valid"), chain.toString());
        assertEquals(8 * PER_WRITER, chain.getInt("checked"), "one row per call and per test-side event, none lost, none twice");
    }

    private static boolean call(String session) {
        String body = Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 1).add("method", "tools/call")
                .add("params", Json.createObjectBuilder().add("name", tenant.backend() + "__count")
                        .add("arguments", Json.createObjectBuilder().add("token", "chain"))).build().toString();
        return McpHttp.response(McpHttp.inSession(tenant.userToken(), session, body)).containsKey("result");
    }

    /** The server's own H2 database, opened beside it (AUTO_SERVER), as a second instance would share it. */
    private static JdbcDataSource serverDatabase() {
        JdbcDataSource db = new JdbcDataSource();
        db.setURL(System.getProperty("it.db.url"));
        db.setUser("switchboard");
        db.setPassword("switchboard");
        return db;
    }

    /** The input hashes of the test-side events use a secret of their own; the chain does not depend on it. */
    private static AuditSecrets testSecrets() {
        return new AuditSecrets(Map.of(1, "a test-side writer's own secret".getBytes()), Set.of());
    }
}
