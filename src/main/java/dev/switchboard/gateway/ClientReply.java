package dev.switchboard.gateway;

import dev.switchboard.mcp.JsonRpcMessage;
import jakarta.json.JsonObject;

import java.util.function.Consumer;

/** Where everything about one client request goes: an HTTP exchange, or the WebSocket it came on. */
public interface ClientReply {

    /** Receives the request's {@code notifications/progress} params, or null when this reply cannot carry them. */
    Consumer<JsonObject> progress();

    /** The response; ends the reply. */
    void answer(JsonRpcMessage response);

    /** The client cancelled the request: end the reply as the transport wants (the spec says not to answer). */
    void cancelled(JsonRpcMessage request);
}
