package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.SharedBackend2026;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A backend that speaks only MCP 2026-07-28 (the SDK v2 server of {@code src/test/node-2026/backend-2026.mjs}, which
 * refuses {@code initialize}) behind {@code /mcp}: the gateway finds its era by {@code server/discover} after the
 * refused handshake and speaks to it statelessly. A session-era client (SDK 1.x) lists and calls its tools, with
 * progress, and answers its {@code input_required} elicitation as an ordinary {@code elicitation/create} request; a
 * 2026-07-28 client (SDK v2) does the same through the gateway's own {@code input_required}.
 */
class GatewayModernBackendIT {

    @RegisterExtension
    static final SharedBackend2026 backend = new SharedBackend2026("modern");
    static String token;

    @BeforeAll
    static void caller() {
        token = Api.newUser("default");
    }

    private static String tool(String own) {
        return backend.name() + "__" + own;
    }

    private static JsonObject call(String name, JsonObject arguments) {
        return Json.createObjectBuilder().add("op", "call").add("name", tool(name)).add("arguments", arguments).build();
    }

    @Test
    void aSessionEraClientUsesTheStatelessBackendAndAnswersItsQuestionsAsRequests() {
        JsonObject output = GatewayClient.run(token, Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("op", "listAll"))
                .add(call("echo", Json.createObjectBuilder().add("message", "across eras").build()))
                .add(Json.createObjectBuilder(call("add", Json.createObjectBuilder().add("a", 2).add("b", 3).build())).add("progress", true))
                .add(call("approve-deploy", Json.createObjectBuilder().add("env", "staging").build()))
                .build());
        assertFalse(output.containsKey("fatal"), output::toString);
        JsonArray steps = output.getJsonArray("steps");
        steps.forEach(s -> assertFalse(s.asJsonObject().containsKey("error"), () -> "every step succeeds: " + steps));
        String names = steps.getJsonObject(0).toString();
        for (String own : List.of("echo", "add", "approve-deploy", "summarise")) {
            assertTrue(names.contains("\"" + tool(own) + "\""), () -> own + " is listed: " + names);
        }
        assertTrue(steps.getJsonObject(1).toString().contains("Echo (2026): across eras"), steps::toString);
        assertTrue(steps.getJsonObject(2).toString().contains("The sum of 2 and 3 is 5."), steps::toString);
        assertEquals(2, steps.getJsonObject(2).getJsonArray("progress").size(), () -> "the backend's progress arrives: " + steps);
        assertTrue(steps.getJsonObject(3).toString().contains("Deploy to staging approved by Grace Hopper."), steps::toString);
        JsonArray asked = output.getJsonArray("asked");
        assertEquals(1, asked.size(), asked::toString);
        assertEquals("elicitation/create", asked.getJsonObject(0).getString("method"));
        assertTrue(asked.getJsonObject(0).toString().contains("Who approves the deploy to staging?"), asked::toString);
    }

    @Test
    void aStatelessClientGetsTheBackendsQuestionsAsItsOwnInputRequired() {
        JsonObject output = GatewayClient.run2026(Api.BASE + "/mcp", token, Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("op", "declare").add("capabilities", Json.createObjectBuilder()
                        .add("sampling", JsonValue.EMPTY_JSON_OBJECT).add("elicitation", JsonValue.EMPTY_JSON_OBJECT)))
                .add(call("echo", Json.createObjectBuilder().add("message", "2026 both ways").build()))
                .add(call("approve-deploy", Json.createObjectBuilder().add("env", "prod").build()))
                .add(call("summarise", Json.createObjectBuilder().add("text", "a long text").build()))
                .build());
        assertFalse(output.containsKey("fatal"), output::toString);
        JsonArray steps = output.getJsonArray("steps");
        steps.forEach(s -> assertFalse(s.asJsonObject().containsKey("error"), () -> "every step succeeds: " + steps));
        assertTrue(steps.getJsonObject(1).toString().contains("Echo (2026): 2026 both ways"), steps::toString);
        assertTrue(steps.getJsonObject(2).toString().contains("Deploy to prod: decline."), steps::toString);
        assertTrue(steps.getJsonObject(3).toString().contains("Summary from the client's model: sampled by the 2026 client"), steps::toString);
        assertEquals(List.of("elicitation/create", "sampling/createMessage"), output.getJsonArray("asked").getValuesAs(JsonObject.class)
                .stream().map(a -> a.getString("method")).toList(), output::toString);
    }

    @Test
    void aCallerThatCannotAnswerGetsTheBackendsOwnRefusal() {
        JsonObject output = GatewayClient.run2026(Api.BASE + "/mcp", token, Json.createArrayBuilder()
                .add(call("approve-deploy", Json.createObjectBuilder().add("env", "prod").build())).build());
        JsonObject step = output.getJsonArray("steps").getJsonObject(0);
        assertTrue(step.containsKey("error"), step::toString);
        assertEquals(-32021, step.getJsonObject("error").getInt("code"), () -> "the client declared no elicitation: " + step);
    }
}
