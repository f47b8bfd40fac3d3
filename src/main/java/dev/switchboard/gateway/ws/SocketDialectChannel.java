package dev.switchboard.gateway.ws;

import dev.switchboard.sql.dialect.DialectChannel;
import jakarta.json.JsonObject;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Session;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/** The query dialect over one {@code /mcp} socket. */
final class SocketDialectChannel implements DialectChannel {

    private static final Logger LOG = Logger.getLogger(SocketDialectChannel.class.getName());
    /** A close reason may hold at most 123 UTF-8 bytes; cut by characters, which is enough for ASCII reasons. */
    private static final int MAX_REASON = 120;

    private final Session session;
    private final SocketSender sender;
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();

    SocketDialectChannel(Session session, SocketSender sender) {
        this.session = session;
        this.sender = sender;
    }

    @Override
    public String id() {
        return session.getId();
    }

    @Override
    public void send(JsonObject message) {
        sender.send(message);
    }

    /**
     * The server ends the connection (the dialect's connection limit): 1013 Try Again Later, the close code for a
     * temporary condition of the server, so generic clients know a retry may work.
     */
    @Override
    public void close(String reason) {
        String text = reason == null ? "" : reason.length() > MAX_REASON ? reason.substring(0, MAX_REASON) : reason;
        try {
            session.close(new CloseReason(CloseReason.CloseCodes.TRY_AGAIN_LATER, text));
        } catch (IOException e) {
            LOG.log(Level.FINE, "closing WebSocket " + session.getId(), e);
        }
    }

    @Override
    public Map<String, Object> attributes() {
        return attributes;
    }
}
