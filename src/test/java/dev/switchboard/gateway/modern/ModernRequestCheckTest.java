package dev.switchboard.gateway.modern;

import dev.switchboard.mcp.HeaderValue;
import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ModernRequestCheckTest {

    private final ModernRequestCheck check = new ModernRequestCheck(List.of("2026-07-28", "2025-11-25"));

    private static JsonObjectBuilder meta(String version) {
        return Json.createObjectBuilder().add("io.modelcontextprotocol/protocolVersion", version)
                .add("io.modelcontextprotocol/clientCapabilities", JsonValue.EMPTY_JSON_OBJECT);
    }

    private static JsonRpcMessage call(String name, JsonObjectBuilder meta) {
        JsonObjectBuilder params = Json.createObjectBuilder().add("name", name);
        if (meta != null) {
            params.add("_meta", meta);
        }
        return new JsonRpcMessage(Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 7).add("method", "tools/call")
                .add("params", params).build());
    }

    private static Map<String, String> headers(String version, String method, String name) {
        Map<String, String> headers = new HashMap<>();
        headers.put("mcp-protocol-version", version);
        headers.put("mcp-method", method);
        headers.put("mcp-name", name);
        return headers;
    }

    private Optional<ModernRequestCheck.Refusal> refusal(JsonRpcMessage m, Map<String, String> headers) {
        return check.refusal(m, name -> headers.get(name.toLowerCase()));
    }

    private static int code(Optional<ModernRequestCheck.Refusal> refusal) {
        assertTrue(refusal.isPresent());
        assertEquals(400, refusal.get().status());
        assertEquals(7, refusal.get().error().json().getInt("id"), "the error answers its request");
        return refusal.get().error().json().getJsonObject("error").getInt("code");
    }

    @Test
    void aWellFormedRequestPassesWithSpacesAroundHeaderValuesAndABase64Name() {
        String encoded = "=?base64?" + Base64.getEncoder().encodeToString("srv__echo".getBytes(StandardCharsets.UTF_8)) + "?=";
        assertFalse(refusal(call("srv__echo", meta("2026-07-28")), headers(" 2026-07-28 ", "tools/call ", "  srv__echo")).isPresent());
        assertFalse(refusal(call("srv__echo", meta("2026-07-28")), headers("2026-07-28", "tools/call", encoded)).isPresent());
    }

    @Test
    void eachCheckHasItsCodeInTheSpecificationsOrder() {
        Map<String, String> good = headers("2026-07-28", "tools/call", "srv__echo");
        Map<String, String> mismatchedVersion = headers("2099-01-01", "tools/call", "srv__echo");
        assertEquals(-32020, code(refusal(call("srv__echo", meta("2026-07-28")), mismatchedVersion)));
        assertEquals(-32022, code(refusal(call("srv__echo", meta("2099-01-01")), mismatchedVersion)));
        assertEquals(-32022, code(refusal(call("srv__echo", null), mismatchedVersion)), "a version before _meta is read");
        assertEquals(-32602, code(refusal(call("srv__echo", null), good)));
        assertEquals(-32602, code(refusal(call("srv__echo", Json.createObjectBuilder()
                .add("io.modelcontextprotocol/protocolVersion", "2026-07-28")), good)), "capabilities are required");
        Map<String, String> noVersion = new HashMap<>(good);
        noVersion.remove("mcp-protocol-version");
        assertEquals(-32020, code(refusal(call("srv__echo", meta("2026-07-28")), noVersion)));
        assertEquals(-32020, code(refusal(call("srv__echo", meta("2026-07-28")), headers("2026-07-28", "TOOLS/CALL", "srv__echo"))));
        assertEquals(-32020, code(refusal(call("srv__echo", meta("2026-07-28")), headers("2026-07-28", "tools/call", "srv__other"))));
        assertEquals(-32020, code(refusal(call("srv__echo", meta("2026-07-28")), headers("2026-07-28", "tools/call", "=?base64?%%%?="))));
        assertEquals(-32602, code(refusal(call("srv__echo", meta("2026-07-28").add("io.modelcontextprotocol/logLevel", "loud")), good)));
    }

    @Test
    void theEraIsChosenByAVersionTheSessionEraDoesNotKnow() {
        assertTrue(ModernRequestCheck.selects("2026-07-28", call("x", null)));
        assertTrue(ModernRequestCheck.selects(null, call("x", meta("2026-07-28"))));
        assertTrue(ModernRequestCheck.selects("2099-01-01", call("x", null)));
        assertFalse(ModernRequestCheck.selects("2025-11-25", call("x", null)));
        assertFalse(ModernRequestCheck.selects(null, call("x", null)));
        assertFalse(ModernRequestCheck.selects("2025-06-18", call("x", meta("2025-06-18"))));
    }

    @Test
    void headerValuesDecodeOnlyWhenWrapped() {
        assertEquals(Optional.of("plain"), HeaderValue.decode(" plain "));
        assertEquals(Optional.of("Hello, 世界"), HeaderValue.decode("=?base64?SGVsbG8sIOS4lueVjA==?="));
        assertEquals(Optional.empty(), HeaderValue.decode("=?base64?not base64!?="));
        assertEquals(Optional.empty(), HeaderValue.decode("=?base64?" + Base64.getEncoder().encodeToString(new byte[]{(byte) 0xff}) + "?="));
    }
}
