package dev.switchboard.gateway.modern;

import dev.switchboard.gateway.GatewayErrors;
import dev.switchboard.gateway.McpRouter;
import dev.switchboard.mcp.JsonRpcMessage;
import dev.switchboard.mcp.McpException;
import dev.switchboard.mcp.RequestMeta;
import dev.switchboard.mcp.ServerRequestHandler;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
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

    private static ModernRouter over(McpRouter router, boolean aggregated) {
        return new ModernRouter(router, RequestMeta.of(Json.createObjectBuilder().add("_meta", META).build()),
                List.of("2026-07-28", "2025-11-25"), aggregated);
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
    void discoveryOffersNeitherChangeNotificationsNorLogsNorTasks() {
        JsonObject discover = over(new Scripted(r -> null), true).handle(request("server/discover", JsonValue.EMPTY_JSON_OBJECT),
                null, null).json().getJsonObject("result");
        JsonObject capabilities = discover.getJsonObject("capabilities");
        assertEquals(JsonValue.EMPTY_JSON_OBJECT, capabilities.getJsonObject("tools"));
        assertFalse(capabilities.containsKey("logging") || capabilities.containsKey("tasks"), capabilities::toString);
        assertTrue(capabilities.containsKey("prompts") && capabilities.containsKey("resources"), "/mcp answers every list");
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

    /** A backend that asks its client {@code asked} while serving any request, then answers it. */
    private record Asking(String asked) implements McpRouter {
        @Override
        public JsonObject initializeResult(String protocolVersion) {
            return JsonValue.EMPTY_JSON_OBJECT;
        }

        @Override
        public JsonRpcMessage handle(JsonRpcMessage request, Consumer<JsonObject> progress, ServerRequestHandler clientRequests) {
            assertTrue(clientRequests.handle(asked, JsonValue.EMPTY_JSON_OBJECT).isCompletedExceptionally(),
                    "the backend is answered at once, never left waiting");
            return JsonRpcMessage.result(request.id(), JsonValue.EMPTY_JSON_OBJECT);
        }
    }

    @Test
    void aBackendsQuestionIsRefusedAtOnceAndTheClientToldWhy() {
        JsonObject params = Json.createObjectBuilder().add("name", "a__b").build();
        JsonRpcMessage missing = over(new Asking("sampling/createMessage"), true).handle(request("tools/call", params), null, null);
        assertEquals(-32021, error(missing).getInt("code"));
        assertEquals(400, ModernRouter.httpStatus(missing));
        assertEquals(JsonValue.EMPTY_JSON_OBJECT, error(missing).getJsonObject("data").getJsonObject("requiredCapabilities").getJsonObject("sampling"));
        JsonRpcMessage declared = over(new Asking("elicitation/create"), true).handle(request("tools/call", params), null, null);
        assertEquals(ModernErrorCodes.CLIENT_INPUT_NOT_BRIDGED, error(declared).getInt("code"), "the client offers elicitation");
        assertEquals(200, ModernRouter.httpStatus(declared));
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
