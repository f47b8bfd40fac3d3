package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClientRequestsTest {

    private final List<JsonRpcMessage> sent = new CopyOnWriteArrayList<>();
    private final ClientRequests requests = new ClientRequests("a");

    private static JsonObject capabilities(String... names) {
        var builder = Json.createObjectBuilder();
        for (String name : names) {
            builder.add(name, Json.createObjectBuilder());
        }
        return builder.build();
    }

    @Test
    void requestsGoOutUnderTheGatewaysIdsAndAnswersMatchBack() throws Exception {
        requests.clientCapabilities(capabilities("sampling", "roots"));
        var handler = requests.over(sent::add, Duration.ofSeconds(5));
        CompletableFuture<JsonObject> first = handler.handle("sampling/createMessage", Json.createObjectBuilder().add("maxTokens", 5).build());
        CompletableFuture<JsonObject> second = handler.handle("roots/list", null);
        assertEquals(2, sent.size());
        String firstId = sent.get(0).json().getString("id");
        assertTrue(firstId.startsWith("switchboard-a."), firstId);
        assertEquals(5, sent.get(0).params().getInt("maxTokens"));

        JsonObject roots = Json.createObjectBuilder().add("roots", Json.createArrayBuilder()).build();
        assertTrue(requests.answer(JsonRpcMessage.result(sent.get(1).id(), roots)));
        assertEquals(roots, second.get());
        assertTrue(requests.answer(new JsonRpcMessage(Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", firstId)
                .add("error", Json.createObjectBuilder().add("code", -1).add("message", "user rejected")).build())));
        ExecutionException refused = assertThrows(ExecutionException.class, first::get);
        assertEquals(-1, assertInstanceOf(McpException.class, refused.getCause()).rpcCode());
        assertFalse(requests.answer(JsonRpcMessage.result(sent.get(1).id(), roots)), "a second answer is dropped");
    }

    @Test
    void aMethodTheClientDidNotOfferIsRefusedWithoutAsking() {
        requests.clientCapabilities(capabilities("roots"));
        CompletableFuture<JsonObject> answer = requests.over(sent::add, Duration.ofSeconds(5))
                .handle("elicitation/create", Json.createObjectBuilder().build());
        ExecutionException refused = assertThrows(ExecutionException.class, answer::get);
        assertEquals(GatewayErrors.METHOD_NOT_FOUND, ((McpException) refused.getCause()).rpcCode());
        assertEquals(List.of(), sent);
    }

    @Test
    void anEndedSessionAbandonsWhatItWasAsked() {
        requests.clientCapabilities(capabilities("sampling"));
        CompletableFuture<JsonObject> answer = requests.over(sent::add, Duration.ofSeconds(5))
                .handle("sampling/createMessage", Json.createObjectBuilder().build());
        requests.abandonAll();
        ExecutionException abandoned = assertThrows(ExecutionException.class, answer::get);
        assertEquals(McpException.Kind.CLOSED, ((McpException) abandoned.getCause()).kind());
    }

    @Test
    void theFinerKindsOf2025_11_25AreAskedOnlyOfClientsThatDeclaredThem() {
        JsonObject url = Json.createObjectBuilder().add("mode", "url").add("elicitationId", "e-1").add("url", "https://example.com/x")
                .add("message", "Sign in").build();
        JsonObject form = Json.createObjectBuilder().add("message", "Name?").add("requestedSchema", Json.createObjectBuilder()).build();
        JsonObject withTools = Json.createObjectBuilder().add("maxTokens", 5).add("tools", Json.createArrayBuilder()).build();
        JsonObject withContext = Json.createObjectBuilder().add("maxTokens", 5).add("includeContext", "thisServer").build();

        requests.clientCapabilities(capabilities("elicitation", "sampling"));
        assertEquals("URL-mode elicitation (capability elicitation.url)", requests.lacks("elicitation/create", url).orElseThrow());
        assertTrue(requests.lacks("elicitation/create", form).isEmpty(), "an elicitation without kinds means forms");
        assertEquals("sampling with tools (capability sampling.tools)", requests.lacks("sampling/createMessage", withTools).orElseThrow());
        assertEquals("sampling with includeContext (capability sampling.context)",
                requests.lacks("sampling/createMessage", withContext).orElseThrow());
        ExecutionException refused = assertThrows(ExecutionException.class,
                () -> requests.over(sent::add, Duration.ofSeconds(5)).handle("elicitation/create", url).get());
        assertTrue(refused.getCause().getMessage().contains("elicitation.url"), refused.getCause().getMessage());
        assertTrue(sent.isEmpty(), "nothing reaches a client that could not handle it");

        requests.clientCapabilities(Json.createObjectBuilder()
                .add("elicitation", Json.createObjectBuilder().add("url", Json.createObjectBuilder()))
                .add("sampling", Json.createObjectBuilder().add("tools", Json.createObjectBuilder()).add("context", Json.createObjectBuilder())).build());
        assertEquals("form-mode elicitation (capability elicitation.form)", requests.lacks("elicitation/create", form).orElseThrow());
        assertTrue(requests.lacks("sampling/createMessage", withTools).isEmpty());
        assertTrue(requests.lacks("sampling/createMessage", withContext).isEmpty());
        requests.over(sent::add, Duration.ofSeconds(5)).handle("elicitation/create", url);
        assertEquals(1, sent.size());
        assertFalse(requests.completes("e-2"), "another elicitation's completion is not this client's");
        assertTrue(requests.completes("e-1"), "the completion of the elicitation it was sent is");
        assertFalse(requests.completes("e-1"), "once");
    }
}
