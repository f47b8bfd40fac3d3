package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.SharedEverything;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tool calls run as tasks by the gateway (MCP 2025-11-25 tasks) for a backend that has no tasks of its own
 * (server-everything): the official SDK 1.x client's own task flow ({@code callToolStream}: {@code tools/call} with
 * {@code task}, {@code tasks/get} until it ends, {@code tasks/result}) gets the long-running tool's result, the task is
 * listed as completed, and another caller cannot see it.
 */
class GatewayTasksIT {

    @RegisterExtension
    static final SharedEverything backend = new SharedEverything("tasks");
    static String token;

    @BeforeAll
    static void caller() {
        token = Api.newUser("default");
    }

    @Test
    void aLongCallRunsAsATaskTheSdkClientPollsToItsResult() {
        JsonObject output = GatewayClient.run(token, Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("op", "callAsTask").add("name", backend.name() + "__trigger-long-running-operation")
                        .add("arguments", Json.createObjectBuilder().add("duration", 2).add("steps", 2)).add("ttl", 120_000))
                .add(Json.createObjectBuilder().add("op", "listTasks"))
                .build());
        assertFalse(output.containsKey("fatal"), output::toString);
        JsonArray steps = output.getJsonArray("steps");
        assertFalse(steps.getJsonObject(0).containsKey("error"), steps::toString);
        List<JsonObject> messages = steps.getJsonObject(0).getJsonArray("messages").getValuesAs(JsonObject.class);
        assertEquals("taskCreated", messages.get(0).getString("type"), messages::toString);
        String taskId = messages.get(0).getJsonObject("task").getString("taskId");
        JsonObject last = messages.get(messages.size() - 1);
        assertEquals("result", last.getString("type"), messages::toString);
        assertTrue(last.toString().contains("Long running operation completed"), last::toString);

        JsonObject listed = steps.getJsonObject(1).getJsonObject("result").getJsonArray("tasks").getValuesAs(JsonObject.class).stream()
                .filter(t -> t.getString("taskId").equals(taskId)).findFirst().orElseThrow(() -> new AssertionError(steps.toString()));
        assertEquals("completed", listed.getString("status"));
        assertEquals(120_000, listed.getInt("ttl"));

        JsonObject stranger = GatewayClient.run(Api.newUser("default"), Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("op", "getTask").add("taskId", taskId)).build());
        JsonObject refused = stranger.getJsonArray("steps").getJsonObject(0);
        assertEquals(-32602, refused.getJsonObject("error").getInt("code"), refused::toString);
        assertTrue(refused.getJsonObject("error").getString("message").contains("Unknown task"), refused::toString);
    }
}
