package dev.switchboard.it.gateway;

import dev.switchboard.it.support.Api;
import dev.switchboard.it.support.GatewayClient;
import dev.switchboard.it.support.McpHttp;
import dev.switchboard.it.support.SharedEverything;
import dev.switchboard.it.support.Tokens;
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

    /** What the launcher answers an initialize with, and what it writes to stderr, for this token. */
    static List<String> launchWith(String token) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("java", "tools/SwitchboardStdio.java");
        builder.environment().put("SWITCHBOARD_TOKEN", token);
        builder.environment().put("SWITCHBOARD_URL", Api.BASE + "/mcp");
        Process process = builder.start();
        try (OutputStream in = process.getOutputStream()) {
            in.write((McpHttp.initializeBody("2025-11-25") + "\n").getBytes(StandardCharsets.UTF_8));
        }
        String answer = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)).readLine();
        String diagnostic = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)).readLine();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        return List.of(answer, diagnostic);
    }

    @Test
    void aRefusedTokenIsNamedWithTheServersReason() throws Exception {
        long now = java.time.Instant.now().getEpochSecond();
        String expired = Tokens.signedByServer(Tokens.claims("launcher-" + now, "user").add("iat", now - 7200).add("exp", now - 3600).build());
        List<String> said = launchWith(expired);
        assertTrue(said.get(0).contains("\"error\"") && said.get(0).contains("The bearer token expired"), said::toString);
        assertTrue(said.get(1).startsWith("switchboard-stdio: Switchboard refused the token in SWITCHBOARD_TOKEN (HTTP 401): "
                + "Unauthorized: The bearer token expired"), said::toString);

        String user = Api.newUser("default");
        JsonObject key = Api.post("/api/api-keys", user, Json.createObjectBuilder().add("name", "launcher").build()).expect(201).json();
        Api.delete("/api/api-keys/" + key.getJsonNumber("id").longValue(), user).expect(204);
        said = launchWith(key.getString("key"));
        assertTrue(said.get(1).endsWith("(HTTP 401): Unauthorized: API key revoked (or not known to this server)"), said::toString);
        assertFalse(said.toString().contains("token missing"), "a token was sent: " + said);
    }
}
