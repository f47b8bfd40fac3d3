package dev.switchboard.gateway.ws;

import jakarta.json.JsonObject;
import jakarta.websocket.Session;

import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Writes to one socket. Workers, backend reader threads and the container all send on it, and a WebSocket remote
 * takes one message at a time, so sends are serialised.
 */
final class SocketSender {

    private static final Logger LOG = Logger.getLogger(SocketSender.class.getName());

    private final Session session;

    SocketSender(Session session) {
        this.session = session;
    }

    void send(JsonObject message) {
        synchronized (this) {
            if (!session.isOpen()) {
                return;
            }
            try {
                session.getBasicRemote().sendText(message.toString());
            } catch (IOException | IllegalStateException e) {
                // a message lost on a socket that is still open breaks the conversation; say so
                LOG.log(session.isOpen() ? Level.WARNING : Level.FINE, "could not send on WebSocket " + session.getId(), e);
            }
        }
    }

    String id() {
        return session.getId();
    }
}
