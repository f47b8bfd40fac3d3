package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.NewUser;
import dev.switchboard.it.support.SharedEverything;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Many calls with progress at once, over the WebSocket and the legacy HTTP+SSE transport: server-everything's
 * long-running operation sends its last progress right before its response, the tightest case. Every call gets
 * all its progress notifications under its own token, in order, before its response, on the wire of the client
 * that made it; what the SDK client then drops itself is told apart (see {@link GatewayClient#assertProgressDelivered}).
 */
class ProgressDeliveryIT {

    private static final int ROUNDS = 10;
    private static final int PARALLEL = 4;
    private static final int STEPS = 2;

    @RegisterExtension
    static final SharedEverything backend = new SharedEverything("progress");
    @RegisterExtension
    static final NewUser user = new NewUser();

    @Test
    void overWebSocketEveryCallGetsAllItsProgressBeforeItsResult() {
        JsonObject outcome = GatewayClient.runScript("gateway-socket.mjs", GatewayClient.SOCKET_URL, user.token(), Json.createArrayBuilder()
                .add(calls().add("op", "sdk").add("call", tool())).build()).getJsonArray("steps").getJsonObject(0);
        assertFalse(outcome.containsKey("error"), outcome::toString);
        assertAllDelivered(outcome.getJsonArray("calls").getValuesAs(JsonObject.class));
    }

    @Test
    void overLegacySseEveryCallGetsAllItsProgressBeforeItsResult() {
        JsonObject outcome = GatewayClient.runScript("gateway-client.mjs", Api.BASE + "/mcp/sse", user.token(), Json.createArrayBuilder()
                .add(calls().add("op", "call").add("name", tool()).add("progress", true)).build()).getJsonArray("steps").getJsonObject(0);
        assertFalse(outcome.containsKey("error"), outcome::toString);
        assertAllDelivered(outcome.getJsonArray("calls").getValuesAs(JsonObject.class));
    }

    private static JsonObjectBuilder calls() {
        return Json.createObjectBuilder().add("rounds", ROUNDS).add("parallel", PARALLEL)
                .add("arguments", Json.createObjectBuilder().add("duration", 0.2).add("steps", STEPS));
    }

    private static String tool() {
        return backend.name() + "__trigger-long-running-operation";
    }

    private static void assertAllDelivered(List<JsonObject> calls) {
        assertEquals(ROUNDS * PARALLEL, calls.size());
        calls.forEach(call -> GatewayClient.assertProgressDelivered(call, STEPS));
        long droppedBySdk = calls.stream().mapToInt(call -> call.getInt("droppedBySdk")).sum();
        // not asserted (it is the SDK's race, not ours), but worth seeing when it happens
        System.out.println("progress notifications the SDK client dropped after their response: " + droppedBySdk
                + " of " + calls.size() * STEPS);
    }
}
