package dev.switchboard.cluster;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import dev.switchboard.gateway.AnswerOutcome;
import dev.switchboard.gateway.ClientMessages;
import dev.switchboard.gateway.ClientSessions;
import dev.switchboard.gateway.GatewaySession;
import dev.switchboard.gateway.GatewaySessions;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.testing.InMemorySessionLedger;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two real Hazelcast members on this host, each with its gateway sessions over one shared session ledger: a client's
 * answer or cancellation received by one member reaches the request held by the other, and an answer for a member
 * that left is refused as such. (The cluster IT does the same through two Liberty servers.) A third member joins for the one test that sees it leave.
 */
class ClusterClientMessagesTest {

    private static final int PORT_A = freePort();
    private static final int PORT_B = freePort();
    private static final int PORT_C = freePort();
    private static final InMemorySessionLedger LEDGER = InMemorySessionLedger.ofSamplingClients();
    private static final ExecutorService THREADS = Executors.newCachedThreadPool();

    static String cluster;
    static Side a;
    static Side b;

    /** One member: its Hazelcast, its sessions, the route under test. */
    record Side(HazelcastInstance hazelcast, GatewaySessions sessions, ClientMessages messages) {

        static Side start(int port, String cluster) {
            ClusterSettings settings = new ClusterSettings(List.of("127.0.0.1:" + PORT_A, "127.0.0.1:" + PORT_B, "127.0.0.1:" + PORT_C),
                    Optional.empty(), port, Optional.of("127.0.0.1"), cluster);
            HazelcastInstance hazelcast = Hazelcast.newHazelcastInstance(MemberConfig.of(settings, 100,
                    MemberConfigTest.LIMITS, ClusterClientMessagesTest.class.getClassLoader()));
            ClusterClientMessages route = new ClusterClientMessages();
            route.member = new HazelcastMember() {
                @Override
                synchronized HazelcastInstance instance() {
                    return hazelcast;
                }
            };
            GatewaySessions sessions = new GatewaySessions(Duration.ofMinutes(30), Clock.systemUTC(), LEDGER, route.member());
            ClientMessages messages = new ClientMessages(sessions, route);
            route.clients = new ClientSessions() {
                @Override
                public ClientMessages messages() {
                    return messages;
                }
            };
            route.executor = managed(THREADS);
            route.start(null);
            return new Side(hazelcast, sessions, messages);
        }
    }

    @BeforeAll
    static void startMembers() throws Exception {
        cluster = "client-messages-" + UUID.randomUUID();
        CompletableFuture<Side> startingB = CompletableFuture.supplyAsync(() -> Side.start(PORT_B, cluster), THREADS);
        a = Side.start(PORT_A, cluster);
        b = startingB.get(120, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (a.hazelcast.getCluster().getMembers().size() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(2, a.hazelcast.getCluster().getMembers().size(), "the members found each other");
    }

    @AfterAll
    static void stopMembers() {
        for (Side side : new Side[]{a, b}) {
            if (side != null) {
                side.hazelcast.shutdown();
            }
        }
        THREADS.shutdownNow();
    }

    @Test
    void anAnswerReceivedByBCompletesTheRequestWaitingOnA() throws Exception {
        GatewaySession onA = LEDGER.opened(a.sessions.create("alice"));
        GatewaySession onB = b.sessions.find(onA.id(), "alice").orElseThrow();
        onA.clientRequests().clientCapabilities(Json.createObjectBuilder().add("sampling", Json.createObjectBuilder()).build());
        List<JsonRpcMessage> sent = new CopyOnWriteArrayList<>();
        CompletableFuture<JsonObject> sampled = onA.clientRequests().over(sent::add, Duration.ofSeconds(30))
                .handle("sampling/createMessage", Json.createObjectBuilder().build());
        String id = sent.get(0).json().getString("id");
        assertTrue(id.startsWith("switchboard-" + a.hazelcast.getCluster().getLocalMember().getUuid() + "."), id);

        JsonObject result = Json.createObjectBuilder().add("model", "answered-on-b").build();
        assertEquals(AnswerOutcome.NOT_WAITING, b.messages.answer(b.sessions.find(
                LEDGER.opened(a.sessions.create("alice")).id(), "alice").orElseThrow(),
                JsonRpcMessage.result(Json.createValue(id), result)), "another session of the same caller");
        assertEquals(AnswerOutcome.DELIVERED, b.messages.answer(onB, JsonRpcMessage.result(Json.createValue(id), result)));
        assertEquals(result, sampled.get(10, TimeUnit.SECONDS));
    }

    @Test
    void anIdNamingNoMemberOfTheClusterIsRefused() {
        GatewaySession onB = b.sessions.create("alice");
        JsonObject empty = Json.createObjectBuilder().build();
        assertEquals(AnswerOutcome.MEMBER_GONE, b.messages.answer(onB,
                JsonRpcMessage.result(Json.createValue("switchboard-" + UUID.randomUUID() + ".x"), empty)));
        assertEquals(AnswerOutcome.NOT_OURS, b.messages.answer(onB,
                JsonRpcMessage.result(Json.createValue("switchboard-not-a-uuid.x"), empty)));
    }

    @Test
    void aCancellationReceivedByBStopsTheCallOnA() throws Exception {
        GatewaySession onA = LEDGER.opened(a.sessions.create("bob"));
        GatewaySession onB = b.sessions.find(onA.id(), "bob").orElseThrow();
        CountDownLatch cancelled = new CountDownLatch(1);
        onA.track("\"call-7\"", cancelled::countDown);
        b.messages.cancel(onB, "\"call-7\"");
        assertTrue(cancelled.await(10, TimeUnit.SECONDS), "the call on A was cancelled");
    }

    @Test
    void anAnswerForARequestOfAMemberThatLeftIsRefusedSayingSo() throws Exception {
        Side c = Side.start(PORT_C, cluster);
        GatewaySession onC = LEDGER.opened(c.sessions.create("carol"));
        onC.clientRequests().clientCapabilities(Json.createObjectBuilder().add("sampling", Json.createObjectBuilder()).build());
        List<JsonRpcMessage> sent = new CopyOnWriteArrayList<>();
        onC.clientRequests().over(sent::add, Duration.ofSeconds(30)).handle("sampling/createMessage",
                Json.createObjectBuilder().build());
        c.hazelcast.shutdown();
        GatewaySession onB = b.sessions.find(onC.id(), "carol").orElseThrow();
        assertEquals(AnswerOutcome.MEMBER_GONE, b.messages.answer(onB, JsonRpcMessage.result(sent.get(0).id(),
                Json.createObjectBuilder().build())));
    }

    /** A port nothing listens on now (other tests and helpers run beside this one). */
    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A container's executor as the tests need it: execute and submit on plain threads. */
    private static ManagedExecutorService managed(ExecutorService threads) {
        return (ManagedExecutorService) Proxy.newProxyInstance(ClusterClientMessagesTest.class.getClassLoader(),
                new Class<?>[]{ManagedExecutorService.class}, (proxy, method, args) -> {
                    try {
                        return ExecutorService.class.getMethod(method.getName(), method.getParameterTypes())
                                .invoke(threads, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
