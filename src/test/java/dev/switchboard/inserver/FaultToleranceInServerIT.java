package dev.switchboard.inserver;

import com.sun.net.httpserver.HttpServer;
import dev.switchboard.llm.LlmClient;
import dev.switchboard.llm.LlmException;
import dev.switchboard.llm.LlmProvider;
import dev.switchboard.llm.LlmReply;
import dev.switchboard.llm.ProviderCalls;
import dev.switchboard.llm.StreamListener;
import dev.switchboard.platform.DatabaseReadinessCheck;
import dev.switchboard.sql.QueryErrorCode;
import dev.switchboard.sql.QueryException;
import dev.switchboard.security.JwksFetch;
import dev.switchboard.sql.catalog.CatalogReads;
import dev.switchboard.sql.catalog.TableInfo;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MicroProfile Fault Tolerance acting inside the server, on the beans the application injects (so through their
 * interceptors): an LLM provider's breaker opening and half-opening, one breaker per provider, the JWKS fetch retrying and timing out, the
 * schema catalog read retrying and answering through its fallback, the database readiness check's timeout, bulkhead
 * and fallback. Short delays and timeouts come from {@link InServerDeployment#FAULT_TOLERANCE_SETTINGS}.
 */
@ExtendWith(ArquillianExtension.class)
class FaultToleranceInServerIT {

    @Deployment
    static WebArchive deployment() {
        return InServerDeployment.of(FaultToleranceInServerIT.class);
    }

    @Inject
    LlmClient llm;

    @Inject
    @LlmProvider("default")
    ProviderCalls providerCalls;

    @Inject
    @LlmProvider("second")
    ProviderCalls secondProviderCalls;

    @Inject
    JwksFetch jwks;

    @Inject
    CatalogReads catalogReads;

    @Inject
    @Readiness
    DatabaseReadinessCheck readiness;

    @Resource(lookup = "jdbc/switchboard")
    DataSource switchboardDb;

    /** Arquillian's resource enricher needs the name: it looks a bare @Resource up under java:comp/env. */
    @Resource(lookup = "java:comp/DefaultManagedExecutorService")
    ManagedExecutorService executor;

    /** A provider that fails for its health until told otherwise, counting the calls that reached it. */
    static final class Provider implements LlmClient {
        final AtomicInteger calls = new AtomicInteger();
        volatile LlmException.Kind failure = LlmException.Kind.UNAVAILABLE;

        @Override
        public String defaultModel() {
            return "m";
        }

        @Override
        public LlmReply complete(JsonObject request) throws LlmException {
            calls.incrementAndGet();
            if (failure != null) {
                throw new LlmException(failure, "scripted " + failure);
            }
            return new LlmReply("m", "fine", List.of(), "stop", null);
        }

        @Override
        public LlmReply stream(JsonObject request, StreamListener listener) throws LlmException {
            return complete(request);
        }
    }

    /**
     * One test for the default provider's breaker's whole life: the produced client (the configured provider, where
     * nothing listens) opens it, a provider's refusal does not count, and after its delay one trial call closes it
     * again. It ends closed, which {@link #eachProviderHasABreakerOfItsOwn} relies on whichever runs first.
     */
    @Test
    void theProvidersBreakerOpensAfterFiveFailuresAndHalfOpensAfterItsDelay() throws Exception {
        JsonObject request = Json.createObjectBuilder().add("messages", Json.createArrayBuilder()).build();
        for (int i = 0; i < 5; i++) {
            LlmException down = assertThrows(LlmException.class, () -> llm.complete(request));
            assertEquals(LlmException.Kind.UNAVAILABLE, down.kind());
            assertFalse(down.getMessage().contains("is not called"), "failure " + (i + 1) + " reached the provider: " + down.getMessage());
        }
        LlmException open = assertThrows(LlmException.class, () -> llm.complete(request));
        assertEquals(LlmException.Kind.UNAVAILABLE, open.kind());
        assertTrue(open.getMessage().startsWith("The LLM provider 'default' at http://127.0.0.1:9/v1 is not called: its last calls "
                + "failed"), open.getMessage());
        assertInstanceOf(CircuitBreakerOpenException.class, open.getCause());

        Provider provider = new Provider();
        assertThrows(CircuitBreakerOpenException.class, () -> providerCalls.call(provider, p -> p.complete(request)));
        assertEquals(0, provider.calls.get(), "an open breaker calls no provider");

        Thread.sleep(2200); // the delay, 2 s here
        provider.failure = null;
        assertEquals("fine", providerCalls.call(provider, p -> p.complete(request)).content(), "the trial call goes through");
        assertEquals(1, provider.calls.get());

        // closed again: refusals pass through and are no failures, five health failures open it once more
        provider.failure = LlmException.Kind.REJECTED;
        for (int i = 0; i < 4; i++) {
            assertThrows(RuntimeException.class, () -> providerCalls.call(provider, p -> p.complete(request)));
        }
        provider.failure = LlmException.Kind.FAILED;
        for (int i = 0; i < 4; i++) {
            assertThrows(LlmException.class, () -> providerCalls.call(provider, p -> p.complete(request)));
        }
        assertEquals(9, provider.calls.get(), "four refusals and four failures in the last five calls: still closed");
        assertThrows(LlmException.class, () -> providerCalls.call(provider, p -> p.complete(request)));
        assertThrows(CircuitBreakerOpenException.class, () -> providerCalls.call(provider, p -> p.complete(request)));
        assertEquals(10, provider.calls.get());

        Thread.sleep(2200);
        assertThrows(LlmException.class, () -> providerCalls.call(provider, p -> p.complete(request)), "a failed trial");
        assertThrows(CircuitBreakerOpenException.class, () -> providerCalls.call(provider, p -> p.complete(request)),
                "a failed trial opens the breaker again at once");
        Thread.sleep(2200);
        provider.failure = null;
        providerCalls.call(provider, p -> p.complete(request));
    }

    /**
     * The server's second provider ({@code llm.providers=second}, models {@code second-*}, where nothing listens either)
     * fails five times through the produced client and its breaker opens; the default provider's stays closed: the
     * produced client still reaches it (refused by the closed port, not by a breaker) and a provider that answers is
     * answered through it. Then the other way round: the default's open breaker leaves the second's calls alone.
     */
    @Test
    void eachProviderHasABreakerOfItsOwn() throws Exception {
        JsonObject toSecond = Json.createObjectBuilder().add("model", "second-model").add("messages", Json.createArrayBuilder()).build();
        JsonObject toDefault = Json.createObjectBuilder().add("messages", Json.createArrayBuilder()).build();
        for (int i = 0; i < 5; i++) {
            LlmException down = assertThrows(LlmException.class, () -> llm.complete(toSecond));
            assertFalse(down.getMessage().contains("is not called"), "failure " + (i + 1) + " reached the provider: " + down.getMessage());
        }
        LlmException open = assertThrows(LlmException.class, () -> llm.complete(toSecond));
        assertTrue(open.getMessage().startsWith("The LLM provider 'second' at http://127.0.0.1:9/v1 is not called"), open.getMessage());
        Provider second = new Provider();
        assertThrows(CircuitBreakerOpenException.class, () -> secondProviderCalls.call(second, p -> p.complete(toSecond)));
        assertEquals(0, second.calls.get());

        LlmException reached = assertThrows(LlmException.class, () -> llm.complete(toDefault));
        assertEquals(LlmException.Kind.UNAVAILABLE, reached.kind());
        assertFalse(reached.getMessage().contains("is not called"), "the default provider was called: " + reached.getMessage());
        Provider answering = new Provider();
        answering.failure = null;
        assertEquals("fine", providerCalls.call(answering, p -> p.complete(toDefault)).content());

        Thread.sleep(2200); // the second's delay, 2 s here: its trial call closes it
        second.failure = null;
        assertEquals("fine", secondProviderCalls.call(second, p -> p.complete(toSecond)).content());
        Provider failing = new Provider();
        for (int i = 0; i < 5; i++) {
            assertThrows(LlmException.class, () -> providerCalls.call(failing, p -> p.complete(toDefault)));
        }
        assertThrows(CircuitBreakerOpenException.class, () -> providerCalls.call(answering, p -> p.complete(toDefault)));
        assertEquals("fine", secondProviderCalls.call(second, p -> p.complete(toSecond)).content(),
                "the default provider's open breaker leaves the second's calls alone");
        Thread.sleep(2200);
        assertEquals("fine", providerCalls.call(answering, p -> p.complete(toDefault)).content(), "closed again for the other tests");
    }

    @Test
    void theJwksFetchRetriesAFailedAttemptAndTimesOutASilentIssuer() throws Exception {
        AtomicInteger requests = new AtomicInteger();
        HttpServer issuer = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        issuer.createContext("/flaky", exchange -> {
            boolean fail = requests.incrementAndGet() <= 2;
            byte[] body = (fail ? "{\"error\":\"starting\"}" : "{\"keys\":[]}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(fail ? 503 : 200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        issuer.createContext("/silent", exchange -> {
            requests.incrementAndGet();
            try {
                Thread.sleep(4000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        issuer.setExecutor(executor);
        issuer.start();
        try {
            String base = "http://127.0.0.1:" + issuer.getAddress().getPort();
            assertEquals("{\"keys\":[]}", jwks.fetch(URI.create(base + "/flaky")));
            assertEquals(3, requests.get(), "two failed attempts, retried");

            requests.set(0);
            // without @Timeout the silent issuer's closed exchange would end the attempts with an IOException
            assertThrows(TimeoutException.class, () -> jwks.fetch(URI.create(base + "/silent")));
            assertEquals(3, requests.get(), "every attempt timed out after 1 s and was retried twice");
        } finally {
            issuer.stop(0);
        }
    }

    @Test
    void theCatalogReadRetriesADatabaseErrorAndFallsBackAfterTimeouts() {
        AtomicInteger attempts = new AtomicInteger();
        Map<String, TableInfo> tables = catalogReads.read(() -> {
            if (attempts.incrementAndGet() == 1) {
                throw new SQLException("connection reset by failover");
            }
            return switchboardDb.getConnection();
        });
        assertEquals(2, attempts.get());
        assertTrue(tables.containsKey("app_user"), "Switchboard's own database read as a catalog: " + tables.keySet());

        attempts.set(0);
        QueryException timedOut = assertThrows(QueryException.class, () -> catalogReads.read(() -> {
            attempts.incrementAndGet();
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new SQLException("interrupted");
        }));
        assertEquals(QueryErrorCode.DATABASE, timedOut.code());
        assertEquals("读取数据库结构超时", timedOut.getMessage());
        assertEquals(3, attempts.get());
    }

    /**
     * With every connection of the pool taken, the check waits for one: its timeout answers DOWN through the
     * fallback, and a third check while two wait is refused by the bulkhead, also DOWN.
     */
    @Test
    void theReadinessCheckAnswersDownWhenTheDatabaseDoesNotAnswerOrTooManyChecksRun() throws Exception {
        assertEquals(HealthCheckResponse.Status.UP, readiness.call().getStatus());

        // plain threads: the container's executor adds threads only gradually, and every holder must run at once
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger held = new AtomicInteger();
        List<Thread> holders = new ArrayList<>();
        for (int i = 0; i < 31; i++) { // one more than the pool's maxPoolSize: the last waits, or the server holds some
            Thread holder = new Thread(() -> {
                try (Connection ignored = switchboardDb.getConnection()) {
                    held.incrementAndGet();
                    release.await(30, TimeUnit.SECONDS);
                } catch (SQLException | InterruptedException e) {
                    // a holder that got no connection is seen in the count below
                }
            });
            holder.start();
            holders.add(holder);
        }
        try {
            int before = -1;
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (held.get() != before && System.nanoTime() < until) { // until no holder got one for a second
                before = held.get();
                Thread.sleep(1000);
            }
            assertTrue(held.get() < 31 && held.get() >= 20, "the pool exhausted, holders waiting: " + held.get() + " of 31 hold one");
            CompletableFuture<HealthCheckResponse> first = CompletableFuture.supplyAsync(readiness::call, runnable -> new Thread(runnable).start());
            CompletableFuture<HealthCheckResponse> second = CompletableFuture.supplyAsync(readiness::call, runnable -> new Thread(runnable).start());
            Thread.sleep(300);
            HealthCheckResponse refused = readiness.call();
            assertEquals(HealthCheckResponse.Status.DOWN, refused.getStatus());
            assertEquals("too many database checks under way at once", refused.getData().orElseThrow().get("error"));
            for (CompletableFuture<HealthCheckResponse> waiting : List.of(first, second)) {
                HealthCheckResponse down = waiting.get(20, TimeUnit.SECONDS);
                assertEquals(HealthCheckResponse.Status.DOWN, down.getStatus());
                assertEquals("the database did not answer within the check's timeout", down.getData().orElseThrow().get("error"));
            }
        } finally {
            release.countDown();
        }
        for (Thread holder : holders) {
            holder.join(30_000);
        }
        assertEquals(HealthCheckResponse.Status.UP, readiness.call().getStatus());
    }
}
