package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.SharedEverything;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stdio launcher ({@code tools/SwitchboardStdio.java}) lets a stdio-only client use the gateway: the official
 * SDK's {@code StdioClientTransport} starts it and speaks MCP over its stdin/stdout (initialize, tools/list,
 * tools/call with progress, a backend's sampling request); without a token it refuses to start.
 */
class GatewayStdioLauncherIT {

    @RegisterExtension
    static final SharedEverything backend = new SharedEverything("stdio-launcher");

    @Test
    void theSdkStdioClientUsesTheGatewayThroughTheLauncher() {
        String user = Api.newUser("default");
        JsonObject output = GatewayClient.runScript("gateway-client.mjs", "stdio:" + Api.BASE + "/mcp", user, Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("op", "listAll"))
                .add(Json.createObjectBuilder().add("op", "call").add("name", backend.name() + "__echo")
                        .add("arguments", Json.createObjectBuilder().add("message", "through stdio")))
                .add(Json.createObjectBuilder().add("op", "call").add("name", backend.name() + "__trigger-long-running-operation")
                        .add("progress", true).add("arguments", Json.createObjectBuilder().add("duration", 1).add("steps", 2)))
                .add(Json.createObjectBuilder().add("op", "call").add("name", backend.name() + "__trigger-sampling-request")
                        .add("arguments", Json.createObjectBuilder().add("prompt", "stdio").add("maxTokens", 10)))
                .build());
        assertEquals("switchboard", output.getJsonObject("initialize").getJsonObject("serverInfo").getString("name"), output::toString);
        List<JsonObject> steps = output.getJsonArray("steps").getValuesAs(JsonObject.class);
        steps.forEach(s -> assertFalse(s.containsKey("error"), s::toString));
        assertTrue(steps.get(0).getJsonArray("names").getValuesAs(JsonString.class).stream()
                .anyMatch(n -> n.getString().equals(backend.name() + "__echo")), steps.get(0)::toString);
        assertTrue(steps.get(1).getJsonObject("result").toString().contains("Echo: through stdio"), steps.get(1)::toString);
        GatewayClient.assertProgressDelivered(steps.get(2), 2);
        assertTrue(steps.get(3).getJsonObject("result").toString().contains("sampled by the IT client"), steps.get(3)::toString);
    }

    @Test
    void withoutATokenTheLauncherSaysWhatIsMissing() throws Exception {
        ProcessBuilder builder = new ProcessBuilder("java", "tools/SwitchboardStdio.java").redirectErrorStream(true);
        builder.environment().remove("SWITCHBOARD_TOKEN");
        Process process = builder.start();
        try (OutputStream in = process.getOutputStream()) {
            in.write("{}\n".getBytes(StandardCharsets.UTF_8));
        }
        String said = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(2, process.exitValue());
        assertEquals("switchboard-stdio: set SWITCHBOARD_TOKEN to a Switchboard token or API key", said);
    }
}
