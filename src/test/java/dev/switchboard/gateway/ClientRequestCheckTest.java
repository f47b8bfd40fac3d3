package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the passthrough refuses to send a backend: methods it does not route, and missing or mistyped params. */
class ClientRequestCheckTest {

    @Test
    void validRequestsMayBeForwarded() {
        for (String params : new String[]{
                "{'method':'ping'}",
                "{'method':'tools/list','params':{'cursor':'abc'}}",
                "{'method':'tools/list'}",
                "{'method':'tools/call','params':{'name':'echo','arguments':{'message':'hi'}}}",
                "{'method':'tools/call','params':{'name':'echo'}}",
                "{'method':'prompts/get','params':{'name':'p','arguments':{'city':'Lyon'}}}",
                "{'method':'resources/read','params':{'uri':'demo://x'}}",
                "{'method':'resources/unsubscribe','params':{'uri':'demo://x'}}",
                "{'method':'completion/complete','params':{'ref':{'type':'ref/prompt','name':'p'},'argument':{'name':'a','value':'b'}}}",
                "{'method':'logging/setLevel','params':{'level':'debug'}}"}) {
            assertTrue(ClientRequestCheck.refusal(request(params)).isEmpty(), params);
        }
    }

    @Test
    void unroutedMethodsAreNotFound() {
        for (String method : new String[]{"no/such/method", "tasks/list", "sampling/createMessage"}) {
            assertEquals(GatewayErrors.METHOD_NOT_FOUND, code(ClientRequestCheck.refusal(request("{'method':'" + method + "'}"))));
        }
    }

    @Test
    void missingOrMistypedParamsAreInvalid() {
        for (String params : new String[]{
                "{'method':'tools/list','params':{'cursor':5}}",
                "{'method':'tools/call','params':{'arguments':{}}}",
                "{'method':'tools/call','params':{'name':'echo','arguments':'text'}}",
                "{'method':'prompts/get'}",
                "{'method':'resources/read','params':{'uri':7}}",
                "{'method':'resources/subscribe'}",
                "{'method':'completion/complete','params':{'ref':{'name':'p'},'argument':{'name':'a','value':'b'}}}",
                "{'method':'completion/complete','params':{'ref':{'type':'ref/prompt'},'argument':{'name':'a'}}}",
                "{'method':'logging/setLevel','params':{'level':'loud'}}"}) {
            Optional<JsonRpcMessage> refusal = ClientRequestCheck.refusal(request(params));
            assertEquals(GatewayErrors.INVALID_PARAMS, code(refusal), params);
            assertEquals(9, refusal.get().json().getInt("id"));
            assertTrue(refusal.get().json().getJsonObject("error").getString("message").startsWith("Invalid params: "), params);
        }
    }

    private static JsonRpcMessage request(String singleQuoted) {
        try (var reader = Json.createReader(new StringReader(singleQuoted.replace('\'', '"')))) {
            JsonObject fields = reader.readObject();
            return new JsonRpcMessage(Json.createObjectBuilder(fields).add("jsonrpc", "2.0").add("id", 9).build());
        }
    }

    private static int code(Optional<JsonRpcMessage> refusal) {
        assertTrue(refusal.isPresent(), "refused");
        return refusal.get().json().getJsonObject("error").getInt("code");
    }
}
