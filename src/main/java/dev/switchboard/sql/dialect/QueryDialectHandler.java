package dev.switchboard.sql.dialect;

import jakarta.json.JsonObject;

/**
 * Serves the query dialect ({@code {"type":"request","id":..,"method":..,"params":..}}) on the same
 * {@code /mcp} socket as standard MCP JSON-RPC. The socket endpoint tells the two apart per message: a message
 * with {@code "jsonrpc"} is MCP, one with {@code "type"} goes here. The dialect authenticates inside the
 * conversation ({@code auth.authenticate}), so such a socket may carry no token of its own.
 */
public interface QueryDialectHandler {

    /** One message of the dialect; answers, errors and notifications go out through the channel. */
    void onMessage(JsonObject message, DialectChannel channel);

    /** The socket closed (by either side); release what the channel held. */
    void onClose(DialectChannel channel);
}
