package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import dev.switchboard.testing.InMemorySessionLedger;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Answers and cancellations routed by member: two instances "a" and "b" share a session through one ledger (as
 * members of a cluster take up each other's sessions) and a route between them standing in for Hazelcast.
 */
class ClientMessagesTest {

    private final InMemorySessionLedger ledger = InMemorySessionLedger.ofSamplingClients();
    private final Route route = new Route();
    private final Member a = new Member("a");
    private final Member b = new Member("b");
    private final List<JsonRpcMessage> sentToClient = new CopyOnWriteArrayList<>();

    @Test
    void anAnswerPostedToTheOtherMemberCompletesTheRequestWhereItWaits() throws Exception {
        GatewaySession onA = ledger.opened(a.sessions.create("alice"));
        GatewaySession onB = b.sessions.find(onA.id(), "alice").orElseThrow();
        CompletableFuture<JsonObject> sampled = ask(onA);
        String id = sentToClient.get(0).json().getString("id");
        assertTrue(id.startsWith("switchboard-a."), id);

        JsonObject result = Json.createObjectBuilder().add("model", "m").build();
        assertEquals(AnswerOutcome.DELIVERED, b.messages.answer(onB, JsonRpcMessage.result(Json.createValue(id), result)));
        assertEquals(result, sampled.get());
        assertEquals(List.of("a: answer in " + onA.id() + " of alice"), route.handed);
        assertEquals(AnswerOutcome.NOT_WAITING, b.messages.answer(onB, JsonRpcMessage.result(Json.createValue(id), result)),
                "answered once");
    }

    @Test
    void anErrorAnswerFailsTheRequestWithItsCode() {
        GatewaySession onA = ledger.opened(a.sessions.create("alice"));
        GatewaySession onB = b.sessions.find(onA.id(), "alice").orElseThrow();
        CompletableFuture<JsonObject> sampled = ask(onA);
        String id = sentToClient.get(0).json().getString("id");
        JsonRpcMessage refused = new JsonRpcMessage(Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", id)
                .add("error", Json.createObjectBuilder().add("code", -1).add("message", "user declined")).build());
        assertEquals(AnswerOutcome.DELIVERED, b.messages.answer(onB, refused));
        ExecutionException failed = assertThrows(ExecutionException.class, sampled::get);
        assertEquals(-1, assertInstanceOf(McpException.class, failed.getCause()).rpcCode());
    }

    @Test
    void anAnswerInAnotherSessionIsRefusedAndTheRequestStillWaits() {
        GatewaySession alices = ledger.opened(a.sessions.create("alice"));
        GatewaySession mallorys = ledger.opened(a.sessions.create("mallory"));
        GatewaySession alicesOther = ledger.opened(a.sessions.create("alice"));
        CompletableFuture<JsonObject> sampled = ask(alices);
        JsonRpcMessage answer = JsonRpcMessage.result(Json.createValue(sentToClient.get(0).json().getString("id")),
                Json.createObjectBuilder().build());
        assertEquals(AnswerOutcome.NOT_WAITING, a.messages.answer(mallorys, answer));
        assertEquals(AnswerOutcome.NOT_WAITING, a.messages.answer(alicesOther, answer), "not even the caller's other session");
        GatewaySession mallorysOnB = b.sessions.find(mallorys.id(), "mallory").orElseThrow();
        assertEquals(AnswerOutcome.NOT_WAITING, b.messages.answer(mallorysOnB, answer), "nor through another member");
        assertFalse(sampled.isDone());
        assertEquals(AnswerOutcome.DELIVERED, a.messages.answer(alices, answer));
    }

    @Test
    void anIdNotOfTheGatewayIsRefusedWithoutAskingAnyone() {
        GatewaySession session = ledger.opened(a.sessions.create("alice"));
        for (var id : List.of(Json.createValue("s-sampling"), Json.createValue(7), Json.createValue("switchboard-7"))) {
            assertEquals(AnswerOutcome.NOT_OURS, a.messages.answer(session,
                    JsonRpcMessage.result(id, Json.createObjectBuilder().build())), id::toString);
        }
        assertEquals(List.of(), route.handed);
    }

    @Test
    void anAnswerForAMemberThatLeftIsRefusedSayingSo() {
        GatewaySession session = ledger.opened(a.sessions.create("alice"));
        JsonRpcMessage answer = JsonRpcMessage.result(Json.createValue("switchboard-c.AAAAAAAAAAAAAAAAAAAAAA"),
                Json.createObjectBuilder().build());
        assertEquals(AnswerOutcome.MEMBER_GONE, a.messages.answer(session, answer));
        assertEquals("Response refused: id \"switchboard-c.x\" was sent by a gateway member that has left the cluster;"
                + " the call that asked ended with it", AnswerOutcome.MEMBER_GONE.refusal("\"switchboard-c.x\""));
        assertEquals("member_gone", AnswerOutcome.MEMBER_GONE.reason());
    }

    @Test
    void aCancellationPostedToTheOtherMemberStopsTheCallWhereItRuns() {
        GatewaySession onA = ledger.opened(a.sessions.create("alice"));
        GatewaySession onB = b.sessions.find(onA.id(), "alice").orElseThrow();
        List<String> cancelled = new ArrayList<>();
        onA.track("\"call-1\"", () -> cancelled.add("call-1 on a"));
        b.messages.cancel(onB, "\"call-1\"");
        assertEquals(List.of("call-1 on a"), cancelled);
        assertEquals(List.of("everyone but b: cancel \"call-1\" in " + onA.id() + " of alice"), route.handed);
    }

    @Test
    void aCancellationServedHereGoesNowhereElseAndOneOfAnotherCallerStopsNothing() {
        GatewaySession onA = ledger.opened(a.sessions.create("alice"));
        List<String> cancelled = new ArrayList<>();
        onA.track("\"call-1\"", () -> cancelled.add("call-1"));
        assertFalse(a.messages.cancelHere(onA.id(), "mallory", "\"call-1\""));
        a.messages.cancel(onA, "\"call-1\"");
        assertEquals(List.of("call-1"), cancelled);
        assertEquals(List.of(), route.handed);
    }

    private CompletableFuture<JsonObject> ask(GatewaySession session) {
        session.clientRequests().clientCapabilities(Json.createObjectBuilder().add("sampling", Json.createObjectBuilder()).build());
        return session.clientRequests().over(sentToClient::add, Duration.ofSeconds(30))
                .handle("sampling/createMessage", Json.createObjectBuilder().add("maxTokens", 1).build());
    }

    /** One instance: its sessions (over the shared ledger) and its client messages. */
    private final class Member implements ClientMessageRoute {
        final String name;
        final GatewaySessions sessions;
        final ClientMessages messages;

        Member(String name) {
            this.name = name;
            this.sessions = new GatewaySessions(Duration.ofMinutes(30), Clock.systemUTC(), ledger, name);
            this.messages = new ClientMessages(sessions, this);
            route.members.put(name, this);
        }

        @Override
        public String member() {
            return name;
        }

        @Override
        public AnswerOutcome answerAt(String member, String sessionId, String subject, JsonObject response) {
            return route.answerAt(member, sessionId, subject, response);
        }

        @Override
        public void cancelElsewhere(String sessionId, String subject, String requestIdKey) {
            route.handed.add("everyone but " + name + ": cancel " + requestIdKey + " in " + sessionId + " of " + subject);
            route.members.values().stream().filter(m -> m != this)
                    .forEach(m -> m.messages.cancelHere(sessionId, subject, requestIdKey));
        }
    }

    /** What the cluster does: hands a message to the member named, or finds it gone. */
    private static final class Route {
        final Map<String, Member> members = new ConcurrentHashMap<>();
        final List<String> handed = new CopyOnWriteArrayList<>();

        AnswerOutcome answerAt(String member, String sessionId, String subject, JsonObject response) {
            Member target = members.get(member);
            if (target == null) {
                return AnswerOutcome.MEMBER_GONE;
            }
            handed.add(member + ": answer in " + sessionId + " of " + subject);
            return target.messages.answerHere(sessionId, subject, response);
        }
    }
}
