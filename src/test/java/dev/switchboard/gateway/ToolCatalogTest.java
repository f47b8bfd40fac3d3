package dev.switchboard.gateway;

import dev.switchboard.backend.tools.GatewayToolName;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.time.Duration;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ToolCatalogTest {

    private static final GatewayBackend WEATHER = new GatewayBackend("weather", "7", Set.of(), Duration.ofSeconds(5), () -> null);

    private static JsonObject exposed(String toolJson) {
        try (var reader = Json.createReader(new StringReader(toolJson))) {
            JsonObject tool = reader.readObject();
            return new ToolCatalog.Entry(WEATHER, 0, tool, new GatewayToolName("weather", tool.getString("name"))).exposedTool();
        }
    }

    @Test
    void anMcpAppsUserInterfaceIsNamedByTheUriTheAggregatedEndpointReadsItUnder() {
        JsonObject tool = exposed("{\"name\":\"forecast\",\"_meta\":{\"ui\":{\"resourceUri\":\"ui://weather/forecast.html\","
                + "\"visibility\":[\"model\",\"app\"]},\"ui/resourceUri\":\"ui://weather/old.html\",\"other\":1}}");
        assertEquals("weather__forecast", tool.getString("name"));
        JsonObject meta = tool.getJsonObject("_meta");
        assertEquals("switchboard://weather/ui://weather/forecast.html", meta.getJsonObject("ui").getString("resourceUri"));
        assertEquals("[\"model\",\"app\"]", meta.getJsonObject("ui").getJsonArray("visibility").toString(), "the rest of ui is kept");
        assertEquals("switchboard://weather/ui://weather/old.html", meta.getString("ui/resourceUri"));
        assertEquals(1, meta.getInt("other"));
        assertEquals(ResourceUri.parse(meta.getJsonObject("ui").getString("resourceUri")).orElseThrow(),
                new ResourceUri("weather", "ui://weather/forecast.html"), "the URI routes back to the backend's own");
    }

    @Test
    void aToolWithoutUserInterfaceIsUntouchedButForItsName() {
        assertEquals(Json.createObjectBuilder().add("name", "weather__now").add("_meta", Json.createObjectBuilder().add("x", "y")).build(),
                exposed("{\"name\":\"now\",\"_meta\":{\"x\":\"y\"}}"));
        assertEquals(Json.createObjectBuilder().add("name", "weather__now").build(), exposed("{\"name\":\"now\"}"));
    }
}
