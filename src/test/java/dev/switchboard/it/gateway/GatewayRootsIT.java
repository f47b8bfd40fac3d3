package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.SharedEverything;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A backend's {@code roots/list} asked outside any request reaches the gateway client that owns the backend session:
 * the SDK client says its roots changed, the gateway tells the caller's server-everything connection, which asks
 * for the roots on its own; the question travels on the client's GET stream and the answer goes back to the backend,
 * which logs how many roots it got (relayed to the client too).
 */
class GatewayRootsIT {

    @RegisterExtension
    static final SharedEverything backend = new SharedEverything("roots");

    @Test
    void rootsAskedOutsideARequestReachTheClientOnItsGetStream() {
        String user = Api.newUser("default");
        JsonObject output = GatewayClient.run(user, Json.createArrayBuilder()
                // a call first, so the caller's connection to the backend is open
                .add(Json.createObjectBuilder().add("op", "call").add("name", backend.name() + "__echo")
                        .add("arguments", Json.createObjectBuilder().add("message", "connect")))
                .add(Json.createObjectBuilder().add("op", "rootsChanged").add("waitMs", 4000))
                .build());
        List<String> asked = output.getJsonArray("asked").getValuesAs(JsonObject.class).stream()
                .map(a -> a.getString("method")).toList();
        assertTrue(asked.contains("roots/list"), output::toString);
        List<String> logs = output.getJsonArray("logs").getValuesAs(JsonObject.class).stream()
                .map(l -> l.get("data")).map(JsonValue::toString).toList();
        assertTrue(logs.stream().anyMatch(l -> l.contains("Roots updated: 1 root(s) received from client")), logs::toString);
    }
}
