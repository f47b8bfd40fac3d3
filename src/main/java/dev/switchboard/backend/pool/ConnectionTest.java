package dev.switchboard.backend.pool;

import dev.switchboard.mcp.client.InitializeResult;
import jakarta.json.JsonObject;

import java.time.Duration;
import java.util.List;

/**
 * Outcome of a successful "test connection".
 *
 * @param initialize what the backend answered to initialize
 * @param tools      its full tool list
 * @param elapsed    how long connect, initialize and listing took
 */
public record ConnectionTest(InitializeResult initialize, List<JsonObject> tools, Duration elapsed) {

    public ConnectionTest {
        tools = List.copyOf(tools);
    }
}
