package dev.switchboard.gateway.modern;

import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.gateway.McpRouter;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.RequestMeta;
import dev.switchboard.mcp.ServerRequestHandler;
import dev.switchboard.security.CallerIdentity;
import dev.switchboard.security.SecretCipher;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ModernRouterTest {

    /** The stack below: answers each request with what the test says and keeps what it was handed. */
    private static final class Scripted implements McpRouter {
        final List<JsonRpcMessage> handed = new ArrayList<>();
        final Function<JsonRpcMessage, JsonRpcMessage> answer;
        ServerRequestHandler clientRequests;

        Scripted(Function<JsonRpcMessage, JsonRpcMessage> answer) {
            this.answer = answer;
        }

        @Override
        public JsonObject initializeResult(String protocolVersion) {
            return Json.createObjectBuilder().add("protocolVersion", protocolVersion)
                    .add("capabilities", Json.createObjectBuilder().add("tools", Json.createObjectBuilder().add("listChanged", true))
                            .add("logging", JsonValue.EMPTY_JSON_OBJECT).add("tasks", JsonValue.EMPTY_JSON_OBJECT))
                    .add("serverInfo", Json.createObjectBuilder().add("name", "switchboard").add("version", "1")).build();
        }

        @Override
        public JsonRpcMessage handle(JsonRpcMessage request, Consumer<JsonObject> progress, ServerRequestHandler clientRequests) {
            handed.add(request);
            this.clientRequests = clientRequests;
            return answer.apply(request);
        }
    }

    private static final JsonObject META = Json.createObjectBuilder()
            .add("io.modelcontextprotocol/protocolVersion", "2026-07-28")
            .add("io.modelcontextprotocol/clientCapabilities", Json.createObjectBuilder().add("elicitation", JsonValue.EMPTY_JSON_OBJECT))
            .add("progressToken", "p1").build();

    private static JsonRpcMessage request(String method, JsonObject params) {
        return new JsonRpcMessage(Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 3).add("method", method)
                .add("params", Json.createObjectBuilder(params).add("_meta", META)).build());
    }

    static final ExecutorService WORKERS = Executors.newCachedThreadPool();
    static final PausedCalls PAUSED = new PausedCalls(new SecretCipher(Map.of(1, new byte[32]), Set.of()), WORKERS,
            Duration.ofSeconds(5), 10);

    private static ModernRouter over(McpRouter router, boolean aggregated) {
        return new ModernRouter(router, RequestMeta.of(Json.createObjectBuilder().add("_meta", META).build()),
                List.of("2026-07-28", "2025-11-25"), aggregated, PAUSED, new CallerIdentity("alice", "t1", Set.of("user")));
    }

    private static JsonObject error(JsonRpcMessage response) {
        return response.json().getJsonObject("error");
    }

    @Test
    void resultsGetTheirTypeListsTheirCachingHintsAndTheBackendNeverSeesTheProtocolsMetaKeys() {
        Scripted below = new Scripted(r -> JsonRpcMessage.result(r.id(), Json.createObjectBuilder()
                .add("tools", JsonValue.EMPTY_JSON_ARRAY).build()));
        JsonObject list = over(below, true).handle(request("tools/list", JsonValue.EMPTY_JSON_OBJECT), null, null)
                .json().getJsonObject("result");
        assertEquals("complete", list.getString("resultType"));
        assertEquals("private", list.getString("cacheScope"));
        assertEquals(0, list.getInt("ttlMs"));
        assertEquals(Json.createObjectBuilder().add("progressToken", "p1").build(),
                below.handed.get(0).params().getJsonObject("_meta"), "only the keys the protocol does not reserve go on");
        JsonObject call = over(below, true).handle(request("tools/call", Json.createObjectBuilder().add("name", "a__b").build()),
                null, null).json().getJsonObject("result");
        assertFalse(call.containsKey("ttlMs"), "a call is not cacheable");
    }

    @Test
    void discoveryOffersListChangesButNeitherLogsNorTasks() {
        JsonObject discover = over(new Scripted(r -> null), true).handle(request("server/discover", JsonValue.EMPTY_JSON_OBJECT),
                null, null).json().getJsonObject("result");
        JsonObject capabilities = discover.getJsonObject("capabilities");
        assertEquals(Json.createObjectBuilder().add("listChanged", true).build(), capabilities.getJsonObject("tools"),
                "subscriptions/listen relays the tool list's changes");
        assertFalse(capabilities.containsKey("logging") || capabilities.containsKey("tasks"), capabilities::toString);
        assertTrue(capabilities.getJsonObject("prompts").getBoolean("listChanged") && capabilities.getJsonObject("resources")
                .getBoolean("listChanged"), "/mcp answers every list");
        assertEquals("switchboard", discover.getJsonObject("_meta").getJsonObject("io.modelcontextprotocol/serverInfo").getString("name"));
        assertFalse(over(new Scripted(r -> null), false).handle(request("server/discover", JsonValue.EMPTY_JSON_OBJECT), null, null)
                .json().getJsonObject("result").getJsonObject("capabilities").containsKey("prompts"), "a passthrough offers its backend's");
    }

    @Test
    void theGatewaysSessionEraCodesBecomeTheEraOwnAndRemovedMethodsAreUnknown() {
        int[][] table = {{GatewayErrors.RATE_LIMITED, -31010}, {GatewayErrors.POLICY_DENIED, -31020},
                {GatewayErrors.BACKEND_UNAVAILABLE, -31030}, {GatewayErrors.BACKEND_TIMEOUT, -31040},
                {GatewayErrors.INVALID_PARAMS, -32602}, {GatewayErrors.REQUEST_CANCELLED, -32800}};
        for (int[] row : table) {
            ModernRouter router = over(new Scripted(r -> GatewayErrors.error(r.id(), row[0], "x", null)), true);
            JsonRpcMessage answer = router.handle(request("tools/call", Json.createObjectBuilder().add("name", "a__b").build()), null, null);
            assertEquals(row[1], error(answer).getInt("code"), "session-era " + row[0]);
            assertEquals(200, ModernRouter.httpStatus(answer));
        }
        JsonRpcMessage notFound = over(new Scripted(r -> GatewayErrors.error(r.id(), GatewayErrors.RESOURCE_NOT_FOUND, "gone", null)), true)
                .handle(request("resources/read", Json.createObjectBuilder().add("uri", "switchboard://a/b").build()), null, null);
        assertEquals(-32602, error(notFound).getInt("code"));
        assertEquals("switchboard://a/b", error(notFound).getJsonObject("data").getString("uri"));
        JsonRpcMessage ping = over(new Scripted(r -> null), true).handle(request("ping", JsonValue.EMPTY_JSON_OBJECT), null, null);
        assertEquals(-32601, error(ping).getInt("code"));
        assertEquals(404, ModernRouter.httpStatus(ping));
    }

    /** A backend that asks its client {@code asked} while serving any request, then answers with what it got. */
    private record Asking(String asked) implements McpRouter {
        @Override
        public JsonObject initializeResult(String protocolVersion) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }

        @Override
        public JsonRpcMessage handle(JsonRpcMessage request, Consumer<JsonObject> progress, ServerRequestHandler clientRequests) {
            try {
                JsonObject answer = clientRequests.handle(asked, Json.createObjectBuilder().add("q", 1).build()).get(10, TimeUnit.SECONDS);
                return JsonRpcMessage.result(request.id(), Json.createObjectBuilder().add("answered", answer).build());
            } catch (ExecutionException e) {
                return JsonRpcMessage.result(request.id(), Json.createObjectBuilder().add("refused", e.getCause().getMessage()).build());
            } catch (InterruptedException | TimeoutException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void aBackendsQuestionTheClientCannotAnswerIsRefusedAtOnceAndTheClientToldWhy() {
        JsonObject params = Json.createObjectBuilder().add("name", "a__b").build();
        JsonRpcMessage missing = over(new Asking("sampling/createMessage"), true).handle(request("tools/call", params), null, null);
        assertEquals(-32021, error(missing).getInt("code"));
        assertEquals(400, ModernRouter.httpStatus(missing));
        assertEquals(JsonValue.EMPTY_JSON_OBJECT, error(missing).getJsonObject("data").getJsonObject("requiredCapabilities").getJsonObject("sampling"));
        JsonRpcMessage notBridged = over(new Asking("elicitation/create"), true).handle(request("completion/complete", params), null, null);
        assertEquals(ModernErrorCodes.CLIENT_INPUT_NOT_BRIDGED, error(notBridged).getInt("code"),
                "only tools/call, prompts/get and resources/read may answer input_required");
        assertEquals(200, ModernRouter.httpStatus(notBridged));
    }

    @Test
    void aBackendsQuestionBecomesInputRequiredAndTheRetryBringsTheAnswerToTheWaitingBackend() {
        ModernRouter router = over(new Asking("elicitation/create"), true);
        JsonObject params = Json.createObjectBuilder().add("name", "a__b").add("arguments", Json.createObjectBuilder().add("x", 1)).build();
        JsonObject first = router.handle(request("tools/call", params), null, null).json().getJsonObject("result");
        assertEquals("input_required", first.getString("resultType"));
        assertEquals(Json.createObjectBuilder().add("input-1", Json.createObjectBuilder().add("method", "elicitation/create")
                .add("params", Json.createObjectBuilder().add("q", 1))).build(), first.getJsonObject("inputRequests"));
        String state = first.getString("requestState");
        assertFalse(state.contains("alice") || state.contains("a__b"), "the state is sealed: " + state);

        JsonObject accepted = Json.createObjectBuilder().add("action", "accept").build();
        JsonRpcMessage done = router.handle(retry(7, params, state, Json.createObjectBuilder().add("input-1", accepted).build()), null, null);
        assertEquals(7, done.json().getInt("id"), "the retry is answered under its own id");
        JsonObject result = done.json().getJsonObject("result");
        assertEquals("complete", result.getString("resultType"));
        assertEquals(accepted, result.getJsonObject("answered"), "the backend got the client's answer");
        assertEquals(0, PAUSED.size(), "a finished call is forgotten");
        assertEquals(-32602, error(router.handle(retry(8, params, state, JsonValue.EMPTY_JSON_OBJECT), null, null)).getInt("code"),
                "the call is over");
    }

    @Test
    void aRetryMustBringItsOwnUntouchedStateForTheSameRequestOfTheSameCaller() {
        ModernRouter router = over(new Asking("elicitation/create"), true);
        JsonObject params = Json.createObjectBuilder().add("name", "a__b").add("arguments", Json.createObjectBuilder().add("x", 1)).build();
        String state = router.handle(request("tools/call", params), null, null).json().getJsonObject("result").getString("requestState");
        JsonObject answer = Json.createObjectBuilder().add("input-1", Json.createObjectBuilder().add("action", "decline")).build();
        String tampered = state.substring(0, state.length() - 6) + (state.endsWith("AAAAAA") ? "BBBBBB" : "AAAAAA");
        assertRefusedWith("changed", router.handle(retry(2, params, tampered, answer), null, null));
        assertRefusedWith("another request", router.handle(retry(2, Json.createObjectBuilder(params)
                .add("arguments", Json.createObjectBuilder().add("x", 2)).build(), state, answer), null, null));
        ModernRouter bob = new ModernRouter(new Asking("elicitation/create"), RequestMeta.of(Json.createObjectBuilder().add("_meta", META).build()),
                List.of("2026-07-28"), true, PAUSED, new CallerIdentity("bob", "t1", Set.of("user")));
        assertRefusedWith("another request", bob.handle(retry(2, params, state, answer), null, null));
        assertRefusedWith("answers no open question", router.handle(retry(2, params, state,
                Json.createObjectBuilder().add("input-9", Json.createObjectBuilder()).build()), null, null));
        assertRefusedWith("must be the result object", router.handle(retry(2, params, state,
                Json.createObjectBuilder().add("input-1", "yes").build()), null, null));
        assertRefusedWith("requestState is required", router.handle(retry(2, params, null, answer), null, null));
        assertEquals("decline", router.handle(retry(3, params, state, answer), null, null).json().getJsonObject("result")
                .getJsonObject("answered").getString("action"), "the caller's own retry is served");
    }

    @Test
    void aQuestionLeftUnansweredEndsTheBackendCallAndTheLateRetryIsToldToStartAgain() throws Exception {
        PausedCalls impatient = new PausedCalls(new SecretCipher(Map.of(1, new byte[32]), Set.of()), WORKERS, Duration.ofMillis(200), 10);
        ModernRouter router = new ModernRouter(new Asking("elicitation/create"), RequestMeta.of(Json.createObjectBuilder()
                .add("_meta", META).build()), List.of("2026-07-28"), true, impatient, new CallerIdentity("alice", "t1", Set.of("user")));
        JsonObject params = Json.createObjectBuilder().add("name", "a__b").build();
        String state = router.handle(request("tools/call", params), null, null).json().getJsonObject("result").getString("requestState");
        for (int i = 0; i < 100 && impatient.size() > 0; i++) {
            Thread.sleep(20);
        }
        assertEquals(0, impatient.size(), "the backend was told the client did not answer, and its call ended");
        assertRefusedWith("send the request again", router.handle(retry(2, params, state,
                Json.createObjectBuilder().add("input-1", Json.createObjectBuilder().add("action", "accept")).build()), null, null));
    }

    private static void assertRefusedWith(String words, JsonRpcMessage answer) {
        assertEquals(-32602, error(answer).getInt("code"), answer::toString);
        assertTrue(error(answer).getString("message").contains(words), answer::toString);
    }

    private static JsonRpcMessage retry(int id, JsonObject params, String state, JsonObject responses) {
        JsonObjectBuilder retried = Json.createObjectBuilder(params).add("_meta", META).add("inputResponses", responses);
        if (state != null) {
            retried.add("requestState", state);
        }
        return new JsonRpcMessage(Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", id).add("method", "tools/call")
                .add("params", retried).build());
    }

    @Test
    void aBackendsOwnCodeThatWouldMeanSomethingElseIsWrapped() {
        McpException headerLike = ModernBackendAccess.settled(McpException.rpcError(-32020, "mine", JsonValue.TRUE));
        assertEquals(ModernErrorCodes.BACKEND_CODE, headerLike.rpcCode());
        assertEquals(-32020, headerLike.rpcData().asJsonObject().getInt("backendCode"));
        assertEquals(-32602, ModernBackendAccess.settled(McpException.rpcError(-32002, "not found", null)).rpcCode());
        assertEquals(-32001, ModernBackendAccess.settled(McpException.rpcError(-32001, "legacy range", null)).rpcCode());
        assertEquals(ModernErrorCodes.BACKEND_CODE, ModernBackendAccess.settled(McpException.rpcError(-31030, "ours", null)).rpcCode());
    }
}
